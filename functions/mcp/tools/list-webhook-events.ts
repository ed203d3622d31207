import { handler } from '../../webhooks/list-webhook-events.ts';
import { routeTool } from '../tool.ts';

/** GET /webhooks/{id}/events */
export const tool = routeTool({
  name: 'list_webhook_events',
  scope: 'webhooks:write',
  route: 'GET /webhooks/{id}/events',
  handler,
  description:
    'List the events delivered (or being delivered) to a webhook endpoint, newest first, with their delivery status.',
});
