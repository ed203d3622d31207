import { handler } from '../../automations/delete-event.ts';
import { routeTool } from '../tool.ts';

/** DELETE /events/{id} */
export const tool = routeTool({
  name: 'delete_event',
  scope: 'automations:write',
  route: 'DELETE /events/{id}',
  handler,
  description: 'Delete a custom event definition by id or name; events of that name can still be sent.',
});
