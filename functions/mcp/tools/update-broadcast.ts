import { handler } from '../../broadcasts/update-broadcast.ts';
import { routeTool } from '../tool.ts';

/** PATCH /broadcasts/{id} */
export const tool = routeTool({
  name: 'update_broadcast',
  scope: 'broadcasts:write',
  route: 'PATCH /broadcasts/{id}',
  handler,
  description: "Change a draft broadcast's segment, sender, subject, content or topic.",
});
