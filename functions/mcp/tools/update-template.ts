import { handler } from '../../templates/update-template.ts';
import { routeTool } from '../tool.ts';

/** PATCH /templates/{id} */
export const tool = routeTool({
  name: 'update_template',
  scope: 'templates:write',
  route: 'PATCH /templates/{id}',
  handler,
  description:
    "Change a template's draft (name, html, alias, subject, text, from, reply_to, variables). Publish it again to use the change.",
});
