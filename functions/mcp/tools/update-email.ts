import { handler } from '../../emails/update-email.ts';
import { routeTool } from '../tool.ts';

/** PATCH /emails/{id} */
export const tool = routeTool({
  name: 'update_email',
  scope: 'emails:send',
  route: 'PATCH /emails/{id}',
  handler,
  description:
    "Reschedule a scheduled email: set a new scheduled_at (ISO 8601 or natural language like 'in 2 hours', at most 30 days ahead). Only emails not yet sent can be rescheduled.",
});
