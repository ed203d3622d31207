import type { Deps } from '../../runtime/deps.ts';
import { deliveryStore, type DeliveryRecord } from '../../table/webhooks.ts';
import { getWebhook } from './webhook.ts';
import type { Page, PageRequest } from '../paging.ts';
import type { DeliveryStatus } from './vocabulary.ts';

/** The endpoint's deliveries, newest event first; with `status`, only those standing there. */
export const listDeliveries = async (
  deps: Deps,
  teamId: string,
  webhookId: string,
  page: PageRequest,
  status?: DeliveryStatus,
): Promise<Page<DeliveryRecord>> => {
  await getWebhook(deps, teamId, webhookId);
  return deliveryStore.page(deps, teamId, webhookId, page, status);
};
