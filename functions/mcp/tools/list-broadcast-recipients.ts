import { handler } from '../../broadcasts/list-broadcast-recipients.ts';
import { routeTool } from '../tool.ts';

/** GET /broadcasts/{id}/recipients */
export const tool = routeTool({
  name: 'list_broadcast_recipients',
  scope: 'broadcasts:read',
  route: 'GET /broadcasts/{id}/recipients',
  handler,
  description:
    "List a broadcast's recipients with one outcome (type: sent, delivered, opened, clicked, bounced, complained, unsubscribed or suppressed), optionally for one email address.",
});
