import { handler } from '../../automations/get-automation-run.ts';
import { routeTool } from '../tool.ts';

/** GET /automations/{id}/runs/{run_id} */
export const tool = routeTool({
  name: 'get_automation_run',
  scope: 'automations:read',
  route: 'GET /automations/{id}/runs/{run_id}',
  handler,
  description: 'Get one run of an automation with each executed step: its status, output and error.',
});
