import { requireEvents, requireTarget, requireSecret } from './webhook.ts';
import type { Deps } from '../../runtime/deps.ts';
import { webhookStore, type WebhookRecord } from '../../table/webhooks.ts';

/** POST /webhooks */
export const createWebhook = async (
  deps: Deps,
  teamId: string,
  input: { endpoint: string; events: readonly string[]; signing_secret?: string | undefined },
): Promise<WebhookRecord> => {
  const events = requireEvents(input.events);
  const secret = requireSecret(input.signing_secret);
  const endpoint = await requireTarget(deps, input.endpoint);
  const w: WebhookRecord = {
    id: deps.ids.next(),
    teamId,
    endpoint,
    events,
    status: 'enabled',
    createdAt: new Date(deps.clock.now()).toISOString(),
    secret,
    previousSecret: null,
    previousSecretExpiresAt: null,
    consecutiveExhausted: 0,
    recentOutcomes: [],
    noticesSentAt: {},
  };
  await webhookStore.put(deps, w);
  return w;
};
