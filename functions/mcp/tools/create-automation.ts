import { handler } from '../../automations/create-automation.ts';
import { routeTool } from '../tool.ts';

/** POST /automations */
export const tool = routeTool({
  name: 'create_automation',
  scope: 'automations:write',
  route: 'POST /automations',
  handler,
  description:
    'Create an automation: a graph of steps (trigger on an event, send_email from a template, delay, wait_for_event, condition, contact_update, contact_delete, add_to_segment) joined by typed connections; disabled unless status is enabled.',
});
