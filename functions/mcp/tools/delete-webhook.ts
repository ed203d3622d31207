import { handler } from '../../webhooks/delete-webhook.ts';
import { routeTool } from '../tool.ts';

/** DELETE /webhooks/{id} */
export const tool = routeTool({
  name: 'delete_webhook',
  scope: 'webhooks:write',
  route: 'DELETE /webhooks/{id}',
  handler,
  description: 'Delete a webhook endpoint; nothing more is delivered to it.',
});
