import { getWebhook } from './webhook.ts';
import type { Deps } from '../../runtime/deps.ts';
import { webhookStore } from '../../table/webhooks.ts';

/** DELETE /webhooks/{id} */
export const deleteWebhook = async (deps: Deps, teamId: string, id: string): Promise<void> => {
  await getWebhook(deps, teamId, id);
  await webhookStore.remove(deps, teamId, id);
};
