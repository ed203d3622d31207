import { handler } from '../../domains/list-domains.ts';
import { routeTool } from '../tool.ts';

/** GET /domains */
export const tool = routeTool({
  name: 'list_domains',
  scope: 'domains:read',
  route: 'GET /domains',
  handler,
  description: "List the team's sending domains with their verification status. Page with limit and after/before.",
});
