import { handler } from '../../broadcasts/duplicate-broadcast.ts';
import { routeTool } from '../tool.ts';

/** POST /broadcasts/{id}/duplicate */
export const tool = routeTool({
  name: 'duplicate_broadcast',
  scope: 'broadcasts:write',
  route: 'POST /broadcasts/{id}/duplicate',
  handler,
  description: 'Copy a broadcast (its segment, sender, subject and content) into a new draft broadcast.',
});
