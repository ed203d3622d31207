import { handler } from '../../webhooks/list-webhook-event-attempts.ts';
import { routeTool } from '../tool.ts';

/** GET /webhooks/{id}/events/{event_id}/attempts */
export const tool = routeTool({
  name: 'list_webhook_event_attempts',
  scope: 'webhooks:write',
  route: 'GET /webhooks/{id}/events/{event_id}/attempts',
  handler,
  description: 'List the delivery attempts of one webhook event: when, the response status, and the error if any.',
});
