import { handler } from '../../broadcasts/delete-broadcast.ts';
import { routeTool } from '../tool.ts';

/** DELETE /broadcasts/{id} */
export const tool = routeTool({
  name: 'delete_broadcast',
  scope: 'broadcasts:write',
  route: 'DELETE /broadcasts/{id}',
  handler,
  description:
    'Delete a draft broadcast. One already scheduled, sending or sent cannot be deleted: cancel it with cancel_broadcast.',
});
