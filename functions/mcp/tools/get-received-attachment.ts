import { handler } from '../../receiving/get-received-attachment.ts';
import { routeTool } from '../tool.ts';

/** GET /emails/receiving/{id}/attachments/{attachment_id} */
export const tool = routeTool({
  name: 'get_received_attachment',
  scope: 'mail:read',
  route: 'GET /emails/receiving/{id}/attachments/{attachment_id}',
  handler,
  description:
    'Get one attachment of a received email of the chosen mailboxes: its metadata and a signed download_url that works for an hour without credentials.',
});
