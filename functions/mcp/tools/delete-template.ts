import { handler } from '../../templates/delete-template.ts';
import { routeTool } from '../tool.ts';

/** DELETE /templates/{id} */
export const tool = routeTool({
  name: 'delete_template',
  scope: 'templates:write',
  route: 'DELETE /templates/{id}',
  handler,
  description: 'Delete a template. Emails and broadcasts already sent with it are not affected.',
});
