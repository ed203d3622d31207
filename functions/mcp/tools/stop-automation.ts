import { handler } from '../../automations/stop-automation.ts';
import { routeTool } from '../tool.ts';

/** POST /automations/{id}/stop */
export const tool = routeTool({
  name: 'stop_automation',
  scope: 'automations:write',
  route: 'POST /automations/{id}/stop',
  handler,
  description: 'Stop an automation: it is disabled and every run still running is cancelled.',
});
