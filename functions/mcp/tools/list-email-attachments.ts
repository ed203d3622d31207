import { handler } from '../../emails/list-email-attachments.ts';
import { routeTool } from '../tool.ts';

/** GET /emails/{id}/attachments */
export const tool = routeTool({
  name: 'list_email_attachments',
  scope: 'emails:read',
  route: 'GET /emails/{id}/attachments',
  handler,
  description:
    'List the attachments of a sent email, in the order sent: filename, size, content type and a signed download_url that works for an hour without credentials.',
});
