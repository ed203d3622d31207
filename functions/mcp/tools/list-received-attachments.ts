import { handler } from '../../receiving/list-received-attachments.ts';
import { routeTool } from '../tool.ts';

/** GET /emails/receiving/{id}/attachments */
export const tool = routeTool({
  name: 'list_received_attachments',
  scope: 'mail:read',
  route: 'GET /emails/receiving/{id}/attachments',
  handler,
  description:
    'List the attachments of a received email of the chosen mailboxes: filename, size, content type and a signed download_url that works for an hour without credentials.',
});
