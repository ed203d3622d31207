import { handler } from '../../topics/get-topic.ts';
import { routeTool } from '../tool.ts';

/** GET /topics/{id} */
export const tool = routeTool({
  name: 'get_topic',
  scope: 'audience:read',
  route: 'GET /topics/{id}',
  handler,
  description: 'Get one topic by id: its name, description, default subscription and visibility.',
});
