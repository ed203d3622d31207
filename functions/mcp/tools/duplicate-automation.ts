import { handler } from '../../automations/duplicate-automation.ts';
import { routeTool } from '../tool.ts';

/** POST /automations/{id}/duplicate */
export const tool = routeTool({
  name: 'duplicate_automation',
  scope: 'automations:write',
  route: 'POST /automations/{id}/duplicate',
  handler,
  description: 'Copy an automation and its graph under a new id, disabled.',
});
