import { handler } from '../../webhooks/replay-webhook-event.ts';
import { routeTool } from '../tool.ts';

/** POST /webhooks/{id}/events/{event_id}/replay */
export const tool = routeTool({
  name: 'replay_webhook_event',
  scope: 'webhooks:write',
  route: 'POST /webhooks/{id}/events/{event_id}/replay',
  handler,
  description: 'Deliver a webhook event to its endpoint again (same webhook-id, so receivers can deduplicate).',
});
