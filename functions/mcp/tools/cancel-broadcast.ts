import { handler } from '../../broadcasts/cancel-broadcast.ts';
import { routeTool } from '../tool.ts';

/** POST /broadcasts/{id}/cancel */
export const tool = routeTool({
  name: 'cancel_broadcast',
  scope: 'broadcasts:write',
  route: 'POST /broadcasts/{id}/cancel',
  handler,
  description: 'Cancel a scheduled or sending broadcast; recipients not yet sent to receive nothing.',
});
