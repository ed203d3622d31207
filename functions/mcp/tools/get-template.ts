import { handler } from '../../templates/get-template.ts';
import { routeTool } from '../tool.ts';

/** GET /templates/{id} */
export const tool = routeTool({
  name: 'get_template',
  scope: 'templates:read',
  route: 'GET /templates/{id}',
  handler,
  description: 'Get one template by id or alias, with its draft and published content and variables.',
});
