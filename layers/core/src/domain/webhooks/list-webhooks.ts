import type { Deps } from '../../runtime/deps.ts';
import { webhookStore, type WebhookRecord } from '../../table/webhooks.ts';
import type { Page, PageRequest } from '../paging.ts';

/** A page of the team's endpoints, newest first. */
export const listWebhooks = (deps: Deps, teamId: string, page: PageRequest): Promise<Page<WebhookRecord>> =>
  webhookStore.page(deps, teamId, page);
