import { randomBytes } from 'node:crypto';
import type { Deps } from '../../runtime/deps.ts';
import { notFound, validationError } from '../../errors/api-error.ts';
import { webhookStore, type WebhookRecord } from '../../table/webhooks.ts';
import { checkTarget, TargetRefused } from './targets.ts';
import { EVENT_TYPES } from '../events/record-event.ts';

/**
 * The event names an endpoint may subscribe to: every event the service records (spec §6), one
 * list with the recorder's. `email.prefetched` is opt-in: only endpoints naming it receive it.
 */
export const WEBHOOK_EVENT_TYPES = EVENT_TYPES;

/**
 * Checks a signing secret: `whsec_` then standard base64 (with its padding) of 24 to 64 bytes.
 * Returns the refusal message, or undefined when valid.
 */
const secretRefusal = (secret: string): string | undefined => {
  const shape =
    '`signing_secret` must be `whsec_` followed by standard base64 (A-Z a-z 0-9 + /, padded with =) of 24 to 64 random bytes';
  if (!secret.startsWith('whsec_')) return `${shape}; it does not start with whsec_.`;
  const b64 = secret.slice('whsec_'.length);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64) || b64.length % 4 !== 0)
    return `${shape}; the part after whsec_ is not standard base64.`;
  const bytes = Buffer.from(b64, 'base64');
  if (bytes.toString('base64') !== b64) return `${shape}; the part after whsec_ is not canonical base64.`;
  if (bytes.length < 24 || bytes.length > 64) return `${shape}; it decodes to ${bytes.length} bytes.`;
  return undefined;
};

/** A new random secret (32 bytes). */
const generateSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

export const requireSecret = (secret: string | undefined): string => {
  if (secret === undefined) return generateSecret();
  const why = secretRefusal(secret);
  if (why) throw validationError(why);
  return secret;
};

export const requireTarget = async (deps: Deps, endpoint: string): Promise<string> => {
  try {
    return (await checkTarget(endpoint, deps.config.WEBHOOK_TARGETS, deps.dns)).url.toString();
  } catch (error) {
    if (error instanceof TargetRefused) throw validationError(error.message);
    throw error;
  }
};

export const requireEvents = (events: readonly string[]): string[] => {
  const known = new Set<string>(WEBHOOK_EVENT_TYPES);
  const unknown = events.filter((e) => !known.has(e));
  if (unknown.length > 0)
    throw validationError(
      `\`events\`: unknown event type ${unknown.map((u) => `"${u}"`).join(', ')}; allowed: ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
    );
  if (events.length === 0) throw validationError('`events` must name at least one event type.');
  return [...new Set(events)];
};

/** The secret of a previous rotation while it still signs, else null. */
const livePreviousExpiry = (w: WebhookRecord, now: number): number | null =>
  w.previousSecret && w.previousSecretExpiresAt !== null && w.previousSecretExpiresAt > now
    ? w.previousSecretExpiresAt
    : null;

/** The wire webhook of GET (with its secret) and of the list (without). */
export const webhookView = (w: WebhookRecord, now: number) => {
  const expires = livePreviousExpiry(w, now);
  return {
    object: 'webhook' as const,
    id: w.id,
    endpoint: w.endpoint,
    events: [...w.events],
    status: w.status,
    created_at: w.createdAt,
    signing_secret: w.secret,
    previous_secret_expires_at: expires === null ? null : new Date(expires).toISOString(),
  };
};

/** A list row: no object, no secrets. */
export const webhookRow = (w: WebhookRecord) => ({
  id: w.id,
  endpoint: w.endpoint,
  events: [...w.events],
  status: w.status,
  created_at: w.createdAt,
});

/** The secrets that sign a delivery now: the current one first, then the previous during its overlap. */
export const signingSecrets = (w: WebhookRecord, now: number): string[] =>
  livePreviousExpiry(w, now) !== null ? [w.secret, w.previousSecret!] : [w.secret];

/** One endpoint; 404 for another team's. */
export const getWebhook = async (deps: Deps, teamId: string, id: string): Promise<WebhookRecord> => {
  const w = await webhookStore.get(deps, teamId, id);
  if (!w) throw notFound('Webhook');
  return w;
};
