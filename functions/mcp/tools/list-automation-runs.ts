import { handler } from '../../automations/list-automation-runs.ts';
import { routeTool } from '../tool.ts';

/** GET /automations/{id}/runs */
export const tool = routeTool({
  name: 'list_automation_runs',
  scope: 'automations:read',
  route: 'GET /automations/{id}/runs',
  handler,
  description: "List an automation's runs, newest first, optionally by status (running, completed, failed, cancelled).",
});
