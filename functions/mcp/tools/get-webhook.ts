import { handler } from '../../webhooks/get-webhook.ts';
import { routeTool } from '../tool.ts';

/** GET /webhooks/{id} */
export const tool = routeTool({
  name: 'get_webhook',
  scope: 'webhooks:write',
  route: 'GET /webhooks/{id}',
  handler,
  description: 'Get one webhook endpoint: its URL, event types and status.',
});
