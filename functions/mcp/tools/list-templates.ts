import { handler } from '../../templates/list-templates.ts';
import { routeTool } from '../tool.ts';

/** GET /templates */
export const tool = routeTool({
  name: 'list_templates',
  scope: 'templates:read',
  route: 'GET /templates',
  handler,
  description: "List the team's templates. Page with limit and after/before.",
});
