import type { DeliveryRecord } from '../../table/webhooks.ts';

/** A row of GET /webhooks/{id}/events (the SDK's WebhookEventLog). */
export const deliveryRow = (d: DeliveryRecord) => ({
  id: d.eventId,
  type: d.eventType,
  created_at: d.createdAt,
  status: d.status,
});

/** When the delivery is tried next (epoch ms): only while pending; null once it succeeded or failed for good. */
export const nextAttemptOf = (d: DeliveryRecord): number | null =>
  d.status === 'pending' && d.nextAttemptAt !== null ? d.nextAttemptAt : null;

/**
 * The attempts that count toward the retry limit: each failure, and the success that ended it (a
 * 429 answered with Retry-After is honoured and not counted).
 */
export const countedAttempts = (d: DeliveryRecord): number => d.failures + (d.status === 'success' ? 1 : 0);

/** The email a delivery's event is about, from the payload sent (email.* events carry it), or undefined. */
export const deliveryEmail = (
  d: DeliveryRecord,
): { readonly id: string; readonly to: readonly string[]; readonly subject: string } | undefined => {
  if (!d.eventType.startsWith('email.')) return undefined;
  const data = (JSON.parse(d.payload) as { data?: Record<string, unknown> }).data ?? {};
  if (typeof data.email_id !== 'string') return undefined;
  const to = Array.isArray(data.to) ? data.to.filter((x): x is string => typeof x === 'string') : [];
  return { id: data.email_id, to, subject: typeof data.subject === 'string' ? data.subject : '' };
};

/** GET /webhooks/{id}/events/{event_id} (the SDK's GetWebhookEventResponseSuccess). */
export const deliveryView = (d: DeliveryRecord) => ({
  object: 'webhook_event' as const,
  ...deliveryRow(d),
  next_attempt_at: nextAttemptOf(d) === null ? null : new Date(nextAttemptOf(d)!).toISOString(),
  payload: JSON.parse(d.payload) as unknown,
});
