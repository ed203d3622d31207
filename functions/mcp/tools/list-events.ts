import { handler } from '../../automations/list-events.ts';
import { routeTool } from '../tool.ts';

/** GET /events */
export const tool = routeTool({
  name: 'list_events',
  scope: 'automations:read',
  route: 'GET /events',
  handler,
  description: "List the team's custom event definitions, newest first, with their payload schemas.",
});
