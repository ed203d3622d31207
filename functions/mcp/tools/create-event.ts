import { handler } from '../../automations/create-event.ts';
import { routeTool } from '../tool.ts';

/** POST /events */
export const tool = routeTool({
  name: 'create_event',
  scope: 'automations:write',
  route: 'POST /events',
  handler,
  description:
    'Define a custom event by name (such as user.signed_up), optionally with a schema of its payload fields (string, number, boolean, date).',
});
