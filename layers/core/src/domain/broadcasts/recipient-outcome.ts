import type { Deps } from '../../runtime/deps.ts';
import type { EmailItem } from '../emails/email.ts';
import {
  cancelQueuedEmail,
  counterWrite,
  outcomeWrites,
  readBroadcast,
  recipientStatusWrite,
} from '../../table/broadcasts.ts';
import type { Write } from '../../table/ops.ts';

type BroadcastEmail = EmailItem & { broadcast_id: string; contact_id: string };

/**
 * Seconds until a broadcast email's planned slot (0 when due): a job that arrives early waits,
 * even by less than a second, so no recipient is mailed before the broadcast's scheduled time
 * (its first slot).
 */
export const broadcastSlotWait = (deps: Deps, e: EmailItem): number => {
  if (!e.slot_at) return 0;
  const wait = Date.parse(e.slot_at) - deps.clock.now();
  return wait > 0 ? Math.min(900, Math.ceil(wait / 1000)) : 0;
};

/** How long a worker trusts a broadcast's status it read (a cancel reaches the workers within this). */
const STATUS_TTL_MS = 1000;
const statuses = new Map<string, { status: Promise<string | undefined>; until: number }>();

/** A broadcast's status, read once a second per process (the jobs of a batch, side by side, share one read). */
const statusOf = (deps: Deps, teamId: string, broadcastId: string): Promise<string | undefined> => {
  const now = Date.now();
  const known = statuses.get(broadcastId);
  if (known && known.until > now) return known.status;
  const status = readBroadcast(deps, teamId, broadcastId, true).then((b) => b?.status);
  if (statuses.size > 1000) statuses.clear();
  statuses.set(broadcastId, { status, until: now + STATUS_TTL_MS });
  // A failed read is not kept: the next job reads again.
  status.catch(() => {
    if (statuses.get(broadcastId)?.status === status) statuses.delete(broadcastId);
  });
  return status;
};

/**
 * True when the email's broadcast was canceled: the email, still queued, is canceled instead of
 * sent (un-queued before the provider) and counted on the broadcast.
 */
export const broadcastCanceled = async (deps: Deps, e: EmailItem): Promise<boolean> => {
  // Only mail still queued is un-queued; a claimed one settles through the claim as any other.
  if (e.status !== 'queued' || (await statusOf(deps, e.team_id, e.broadcast_id!)) !== 'canceled') return false;
  await cancelQueuedEmail(deps, e as BroadcastEmail, new Date(deps.clock.now()).toISOString());
  return true;
};

/** The broadcast writes that record a broadcast email's outcome with the email's own (none for other mail). */
export const broadcastOutcome = (deps: Deps, e: EmailItem, outcome: 'sent' | 'failed'): Write[] =>
  e.broadcast_id && e.contact_id
    ? outcomeWrites(e as BroadcastEmail, outcome, new Date(deps.clock.now()).toISOString())
    : [];

const REACHED = new Set(['sent', 'delivered', 'delivery_delayed', 'bounced', 'complained', 'opened', 'clicked']);

/**
 * The broadcast writes that go with a provider event moving a broadcast email: the recipient
 * row follows the email, and the first move past the provider (when the worker died before
 * recording its send) counts the send on the broadcast, exactly once with the email's own update.
 */
export const providerEventWrites = (deps: Deps, e: EmailItem, next: string): Write[] => {
  if (!e.broadcast_id || !e.contact_id) return [];
  const at = new Date(deps.clock.now()).toISOString();
  const before = REACHED.has(e.status) || e.status === 'failed';
  const row = recipientStatusWrite(e as BroadcastEmail, next, at);
  if (!before && (REACHED.has(next) || next === 'failed'))
    return [counterWrite(e as BroadcastEmail, next === 'failed' ? 'failed' : 'sent', at), row];
  return [row];
};
