import { getWebhook, requireSecret } from './webhook.ts';
import type { Deps } from '../../runtime/deps.ts';
import { notFound, validationError } from '../../errors/api-error.ts';
import { webhookStore, type WebhookRecord } from '../../table/webhooks.ts';
import { MAX_WEBHOOK_OVERLAP_HOURS } from '../../limits.ts';

const DEFAULT_OVERLAP_HOURS = 24;

/**
 * Rotates the signing secret. The old secret keeps signing (as the second candidate) for
 * `overlap_hours` (default 24, at most 72; 0 drops it at once). A rotation inside an overlap
 * window replaces the previous secret with the one just rotated out.
 */
export const rotateWebhookSecret = async (
  deps: Deps,
  teamId: string,
  id: string,
  input: { signing_secret?: string | undefined; overlap_hours?: number | undefined },
): Promise<WebhookRecord> => {
  const current = await getWebhook(deps, teamId, id);
  const secret = requireSecret(input.signing_secret);
  const hours = input.overlap_hours ?? DEFAULT_OVERLAP_HOURS;
  if (!Number.isInteger(hours) || hours < 0 || hours > MAX_WEBHOOK_OVERLAP_HOURS)
    throw validationError(
      `\`overlap_hours\` must be a whole number from 0 to ${MAX_WEBHOOK_OVERLAP_HOURS}; got ${hours}.`,
    );
  if (secret === current.secret) throw validationError('`signing_secret` must differ from the current secret.');
  const now = deps.clock.now();
  const keepOld = hours > 0;
  if (
    !(await webhookStore.update(deps, teamId, id, {
      secret,
      previous_secret: keepOld ? current.secret : null,
      previous_secret_expires_at: keepOld ? now + hours * 3_600_000 : null,
    }))
  )
    throw notFound('Webhook');
  return getWebhook(deps, teamId, id);
};
