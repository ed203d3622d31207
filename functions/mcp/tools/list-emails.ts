import { handler } from '../../emails/list-emails.ts';
import { routeTool } from '../tool.ts';

/** GET /emails */
export const tool = routeTool({
  name: 'list_emails',
  scope: 'emails:read',
  route: 'GET /emails',
  handler,
  description:
    "List the team's sent and scheduled emails, newest first, with their last event (queued, sent, delivered, bounced, ...). Page with limit (1-100, default 20) and after/before (an email id from the previous page).",
});
