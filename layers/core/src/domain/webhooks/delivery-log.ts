import type { Deps } from '../../runtime/deps.ts';
import { notFound } from '../../errors/api-error.ts';
import { deliveryStore, type AttemptRecord, type DeliveryRecord } from '../../table/webhooks.ts';
import { getWebhook } from './webhook.ts';
import { replayDelivery } from './deliver.ts';
import type { Page, PageRequest } from '../paging.ts';

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

/** The endpoint's deliveries, newest event first. */
export const listDeliveries = async (
  deps: Deps,
  teamId: string,
  webhookId: string,
  page: PageRequest,
): Promise<Page<DeliveryRecord>> => {
  await getWebhook(deps, teamId, webhookId);
  return deliveryStore.page(deps, teamId, webhookId, page);
};

/** One delivery; 404 for an unknown event or another team's endpoint. */
export const getDelivery = async (
  deps: Deps,
  teamId: string,
  webhookId: string,
  eventId: string,
): Promise<DeliveryRecord> => {
  await getWebhook(deps, teamId, webhookId);
  const d = await deliveryStore.get(deps, teamId, webhookId, eventId);
  if (!d) throw notFound('Webhook event');
  return d;
};

/** The attempts of one delivery, newest first. */
export const listAttempts = async (
  deps: Deps,
  teamId: string,
  webhookId: string,
  eventId: string,
  page: PageRequest,
): Promise<Page<AttemptRecord>> => {
  await getDelivery(deps, teamId, webhookId, eventId);
  return deliveryStore.attempts(deps, teamId, webhookId, eventId, page);
};

/** Sends a logged event to the endpoint again, whatever its state. */
export const replayEvent = async (
  deps: Deps,
  teamId: string,
  webhookId: string,
  eventId: string,
): Promise<DeliveryRecord> => {
  const d = await getDelivery(deps, teamId, webhookId, eventId);
  await replayDelivery(deps, d);
  return d;
};
