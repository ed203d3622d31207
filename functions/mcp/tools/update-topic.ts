import { handler } from '../../topics/update-topic.ts';
import { routeTool } from '../tool.ts';

/** PATCH /topics/{id} */
export const tool = routeTool({
  name: 'update_topic',
  scope: 'audience:write',
  route: 'PATCH /topics/{id}',
  handler,
  description: "Update a topic's name, description or visibility.",
});
