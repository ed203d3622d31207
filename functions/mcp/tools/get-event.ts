import { handler } from '../../automations/get-event.ts';
import { routeTool } from '../tool.ts';

/** GET /events/{id} */
export const tool = routeTool({
  name: 'get_event',
  scope: 'automations:read',
  route: 'GET /events/{id}',
  handler,
  description: 'Get one custom event definition by its id or its name, with its payload schema.',
});
