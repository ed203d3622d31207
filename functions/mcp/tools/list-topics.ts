import { handler } from '../../topics/list-topics.ts';
import { routeTool } from '../tool.ts';

/** GET /topics */
export const tool = routeTool({
  name: 'list_topics',
  scope: 'audience:read',
  route: 'GET /topics',
  handler,
  description: "List the team's topics. Page with limit and after/before.",
});
