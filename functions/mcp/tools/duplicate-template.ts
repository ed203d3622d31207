import { handler } from '../../templates/duplicate-template.ts';
import { routeTool } from '../tool.ts';

/** POST /templates/{id}/duplicate */
export const tool = routeTool({
  name: 'duplicate_template',
  scope: 'templates:write',
  route: 'POST /templates/{id}/duplicate',
  handler,
  description: 'Copy a template (its content and variables) into a new draft template.',
});
