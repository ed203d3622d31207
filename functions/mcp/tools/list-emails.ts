import { handler } from '../../emails/list-emails.ts';
import { routeTool } from '../tool.ts';
import { LAST_EVENTS } from '@mailstack/core/domain/emails/email';

/** GET /emails */
export const tool = routeTool({
  name: 'list_emails',
  scope: 'emails:read',
  route: 'GET /emails',
  handler,
  description: `List the team's sent and scheduled emails, newest first, with their last event (one of ${LAST_EVENTS.join(', ')}). Page with limit (1-100, default 20) and after/before (an email id from the previous page).`,
});
