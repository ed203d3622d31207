import { handler } from '../../templates/publish-template.ts';
import { routeTool } from '../tool.ts';

/** POST /templates/{id}/publish */
export const tool = routeTool({
  name: 'publish_template',
  scope: 'templates:write',
  route: 'POST /templates/{id}/publish',
  handler,
  description: "Publish a template's draft so send_email and broadcasts can use it.",
});
