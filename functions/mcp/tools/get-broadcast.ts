import { handler } from '../../broadcasts/get-broadcast.ts';
import { routeTool } from '../tool.ts';

/** GET /broadcasts/{id} */
export const tool = routeTool({
  name: 'get_broadcast',
  scope: 'broadcasts:read',
  route: 'GET /broadcasts/{id}',
  handler,
  description: 'Get one broadcast with its content, status and send counts.',
});
