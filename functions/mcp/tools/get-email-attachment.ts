import { handler } from '../../emails/get-email-attachment.ts';
import { routeTool } from '../tool.ts';

/** GET /emails/{id}/attachments/{attachment_id} */
export const tool = routeTool({
  name: 'get_email_attachment',
  scope: 'emails:read',
  route: 'GET /emails/{id}/attachments/{attachment_id}',
  handler,
  description:
    'Get one attachment of a sent email: its metadata and a signed download_url that works for an hour without credentials.',
});
