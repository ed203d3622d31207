import { handler } from '../../automations/get-automation.ts';
import { routeTool } from '../tool.ts';

/** GET /automations/{id} */
export const tool = routeTool({
  name: 'get_automation',
  scope: 'automations:read',
  route: 'GET /automations/{id}',
  handler,
  description: 'Get one automation with the steps and connections of the graph new runs start on.',
});
