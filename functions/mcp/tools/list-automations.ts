import { handler } from '../../automations/list-automations.ts';
import { routeTool } from '../tool.ts';

/** GET /automations */
export const tool = routeTool({
  name: 'list_automations',
  scope: 'automations:read',
  route: 'GET /automations',
  handler,
  description: "List the team's automations, newest first, optionally only enabled or disabled ones.",
});
