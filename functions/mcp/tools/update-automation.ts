import { handler } from '../../automations/update-automation.ts';
import { routeTool } from '../tool.ts';

/** PATCH /automations/{id} */
export const tool = routeTool({
  name: 'update_automation',
  scope: 'automations:write',
  route: 'PATCH /automations/{id}',
  handler,
  description:
    "Change an automation's name or status, or replace its graph (steps and connections together); runs already started keep the graph they started on.",
});
