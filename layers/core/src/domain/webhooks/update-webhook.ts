import { getWebhook, requireEvents, requireTarget } from './webhook.ts';
import type { Deps } from '../../runtime/deps.ts';
import { notFound } from '../../errors/api-error.ts';
import { webhookStore, type WebhookRecord } from '../../table/webhooks.ts';
import type { WebhookStatus } from './vocabulary.ts';

/**
 * PATCH /webhooks/{id}: endpoint, events, status. Re-enabling a disabled endpoint starts its
 * exhausted count again; events recorded while it was disabled are not replayed.
 */
export const updateWebhook = async (
  deps: Deps,
  teamId: string,
  id: string,
  change: {
    endpoint?: string | undefined;
    events?: readonly string[] | undefined;
    status?: WebhookStatus | undefined;
  },
): Promise<WebhookRecord> => {
  const current = await getWebhook(deps, teamId, id);
  const set: Parameters<typeof webhookStore.update>[3] = {};
  if (change.events !== undefined) set.events = requireEvents(change.events);
  if (change.endpoint !== undefined) set.endpoint = await requireTarget(deps, change.endpoint);
  if (change.status !== undefined) {
    set.status = change.status;
    if (change.status === 'enabled' && current.status === 'disabled') {
      set.consecutive_exhausted = 0;
      set.recent_outcomes = [];
    }
  }
  if (!(await webhookStore.update(deps, teamId, id, set))) throw notFound('Webhook');
  return getWebhook(deps, teamId, id);
};
