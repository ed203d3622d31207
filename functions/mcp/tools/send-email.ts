import { handler } from '../../emails/send-email.ts';
import { routeTool } from '../tool.ts';

/** POST /emails */
export const tool = routeTool({
  name: 'send_email',
  scope: 'emails:send',
  route: 'POST /emails',
  handler,
  description:
    "Send one email from a verified domain of the team. `from` must be a single address at a verified sending domain; up to 50 recipients across to, cc and bcc; give html and/or text (or a published template). Optional scheduled_at (ISO 8601 or 'in 1 hour', at most 30 days ahead) schedules it. Returns the new email's id; check delivery later with get_email.",
});
