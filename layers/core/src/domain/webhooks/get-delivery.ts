import type { Deps } from '../../runtime/deps.ts';
import { notFound } from '../../errors/api-error.ts';
import { deliveryStore, type DeliveryRecord } from '../../table/webhooks.ts';
import { getWebhook } from './webhook.ts';

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
