import { handler } from '../../suppressions/list-suppressions.ts';
import { routeTool } from '../tool.ts';

/** GET /suppressions */
export const tool = routeTool({
  name: 'list_suppressions',
  scope: 'audience:read',
  route: 'GET /suppressions',
  handler,
  description:
    "List the team's suppressed addresses with their origin (bounce, complaint, unsubscribe or manual). Page with limit and after/before.",
});
