import { handler } from '../../automations/delete-automation.ts';
import { routeTool } from '../tool.ts';

/** DELETE /automations/{id} */
export const tool = routeTool({
  name: 'delete_automation',
  scope: 'automations:write',
  route: 'DELETE /automations/{id}',
  handler,
  description: 'Delete an automation; its running runs are cancelled.',
});
