import { getDelivery } from './get-delivery.ts';
import type { Deps } from '../../runtime/deps.ts';
import type { DeliveryRecord } from '../../table/webhooks.ts';
import { replayDelivery } from './deliver.ts';

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
