import type { DeliveryRecord } from '../../table/webhooks.ts';

/** A row of GET /webhooks/{id}/events (the SDK's WebhookEventLog). */
export const deliveryRow = (d: DeliveryRecord) => ({
  id: d.eventId,
  type: d.eventType,
  created_at: d.createdAt,
  status: d.status,
});

/** GET /webhooks/{id}/events/{event_id} (the SDK's GetWebhookEventResponseSuccess). */
export const deliveryView = (d: DeliveryRecord) => ({
  object: 'webhook_event' as const,
  ...deliveryRow(d),
  next_attempt_at: d.status === 'pending' && d.nextAttemptAt !== null ? new Date(d.nextAttemptAt).toISOString() : null,
  payload: JSON.parse(d.payload) as unknown,
});
