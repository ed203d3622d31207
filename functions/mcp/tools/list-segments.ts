import { handler } from '../../segments/list-segments.ts';
import { routeTool } from '../tool.ts';

/** GET /segments */
export const tool = routeTool({
  name: 'list_segments',
  scope: 'audience:read',
  route: 'GET /segments',
  handler,
  description: "List the team's segments. Page with limit and after/before.",
});
