import { handler } from '../../automations/send-event.ts';
import { routeTool } from '../tool.ts';

/** POST /events/send */
export const tool = routeTool({
  name: 'send_event',
  scope: 'automations:write',
  route: 'POST /events/send',
  handler,
  description:
    'Send a custom event for one contact (contact_id or email) with an optional payload: it starts the enabled automations it triggers and resumes runs waiting for it.',
});
