import { getDelivery } from './get-delivery.ts';
import type { Deps } from '../../runtime/deps.ts';
import { deliveryStore, type AttemptRecord } from '../../table/webhooks.ts';
import type { Page, PageRequest } from '../paging.ts';

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
