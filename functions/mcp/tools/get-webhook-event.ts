import { handler } from '../../webhooks/get-webhook-event.ts';
import { routeTool } from '../tool.ts';

/** GET /webhooks/{id}/events/{event_id} */
export const tool = routeTool({
  name: 'get_webhook_event',
  scope: 'webhooks:write',
  route: 'GET /webhooks/{id}/events/{event_id}',
  handler,
  description: "Get one event of a webhook endpoint's delivery log, with its payload and delivery status.",
});
