import { handler } from '../../topics/delete-topic.ts';
import { routeTool } from '../tool.ts';

/** DELETE /topics/{id} */
export const tool = routeTool({
  name: 'delete_topic',
  scope: 'audience:write',
  route: 'DELETE /topics/{id}',
  handler,
  description: "Delete a topic and the contacts' choices about it.",
});
