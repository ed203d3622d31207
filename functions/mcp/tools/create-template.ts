import { handler } from '../../templates/create-template.ts';
import { routeTool } from '../tool.ts';

/** POST /templates */
export const tool = routeTool({
  name: 'create_template',
  scope: 'templates:write',
  route: 'POST /templates',
  handler,
  description:
    'Create an email template (a draft): name, html, optional alias, subject, text, from, reply_to and declared variables ({{{NAME}}} placeholders). Publish it with publish_template before sending with it.',
});
