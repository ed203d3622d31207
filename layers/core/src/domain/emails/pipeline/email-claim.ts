import { randomUUID } from 'node:crypto';
import type { Deps } from '../../../runtime/deps.ts';
import { keys } from '../../../table/keys.ts';
import { updateItem, type Condition, type Write } from '../../../table/ops.ts';
import type { EventType } from '../../events/record-event.ts';
import { CLAIMABLE_STATUSES, type EmailItem } from '../email.ts';
import { settleStatusEvent, statusEventAt, writeStatusChange } from './status-event.ts';

/**
 * A send worker's claim on an email: taken before the provider call, held while it runs, given
 * back when the job waits, and the only way an outcome is recorded (one worker sends an email).
 */
/** How long a worker's claim lasts before another may take the email over. */
export const CLAIM_LEASE_MS = 60_000;
/**
 * After a claim expires, how long to wait for the provider's own Send event before sending
 * again: a worker that died after the provider accepted the message is covered by that event.
 */
export const CLAIM_GRACE_MS = 120_000;

/** Who may claim an email: one waiting to be sent, or one whose claim lapsed (and its grace after). */
const claimCondition = (now: number): Condition => ({
  or: [
    { attr: 'status', in: CLAIMABLE_STATUSES },
    {
      and: [
        { attr: 'status', eq: 'sending' },
        { attr: 'claimed_until', lt: now - CLAIM_GRACE_MS },
      ],
    },
  ],
});

/** `claimCondition` on the email as read. */
export const claimable = (e: EmailItem, now: number): boolean =>
  CLAIMABLE_STATUSES.includes(e.status) ||
  (e.status === 'sending' && Number(e.claimed_until ?? 0) < now - CLAIM_GRACE_MS);

/**
 * Before a job waiting without a claim goes back on the queue until `until`: moves the email's due
 * time there when the sweeper could take the email for lost before the job is back (it would then
 * have been due for more than half the sweeper's grace; one write in that case only), so no second
 * job is queued for it, taking a second place in the line. A job back sooner writes nothing: a
 * backlog's jobs booking places within the next minute cost no write each. False when the email is
 * no longer claimable (its outcome settled).
 */
export const keepFromSweeper = async (deps: Deps, e: EmailItem, until: number): Promise<boolean> => {
  const due = keys.email.sendDueOf(e);
  if (due === undefined || until <= due + (deps.config.SWEEP_AFTER_SECONDS * 1000) / 2) return true;
  const booked = await updateItem(
    deps,
    keys.email.item(e.team_id, e.id),
    { set: keys.email.sendDue(e.id, new Date(until).toISOString()) },
    claimCondition(deps.clock.now()),
  );
  if (booked) return true;
  await settleOutcome(deps, e);
  return false;
};

export const claim = async (deps: Deps, e: EmailItem): Promise<string | undefined> => {
  const now = deps.clock.now();
  const token = randomUUID();
  const claimed = await updateItem(
    deps,
    keys.email.item(e.team_id, e.id),
    {
      set: {
        status: 'sending',
        claim_token: token,
        claimed_until: now + CLAIM_LEASE_MS,
        updated_at: new Date(now).toISOString(),
      },
      add: { attempts: 1 },
    },
    claimCondition(now),
  );
  return claimed ? token : undefined;
};

/** Only the claim holder records the outcome, and only while the provider's events have not moved it on. */
const heldClaim = (token: string): Condition => ({
  and: [
    { attr: 'status', eq: 'sending' },
    { attr: 'claim_token', eq: token },
  ],
});

/**
 * Records the outcome (`set`, with its `updated_at`) and then its event (and a broadcast email's
 * counter and recipient row, in one transaction with the outcome); false when the claim was lost
 * meanwhile.
 */
export const finish = (
  deps: Deps,
  e: EmailItem,
  token: string,
  set: Record<string, unknown> & { updated_at: string },
  event: { readonly type: EventType; readonly extra?: Record<string, unknown> },
  also: readonly Write[] = [],
): Promise<boolean> =>
  writeStatusChange(
    deps,
    e,
    {
      key: keys.email.item(e.team_id, e.id),
      change: { set, remove: ['claim_token', 'claimed_until', ...keys.email.waitingAttributes] },
      when: heldClaim(token),
    },
    { ...event, at: statusEventAt(deps, set.updated_at) },
    also,
  );

/**
 * A job back for an email its worker already sent or failed (the queue's retry of a run that died
 * after recording the outcome): stores the outcome's event if that run did not get to it.
 */
export const settleOutcome = async (deps: Deps, e: EmailItem): Promise<void> => {
  if (e.status === 'sent') await settleStatusEvent(deps, e, 'email.sent');
  else if (e.status === 'failed' && e.failure_reason)
    await settleStatusEvent(deps, e, 'email.failed', { failed: { reason: e.failure_reason } });
};

/**
 * Gives the claim back. With `bookedAt` (no send was tried: the job waits for its place in the
 * send line) it also takes back the attempt the claim counted and moves the email's due time to
 * that instant, so the sweeper leaves it alone until then.
 */
export const release = async (deps: Deps, e: EmailItem, token: string, bookedAt?: number) => {
  const waits = bookedAt !== undefined;
  await updateItem(
    deps,
    keys.email.item(e.team_id, e.id),
    {
      set: { status: 'queued', ...(waits ? keys.email.sendDue(e.id, new Date(bookedAt).toISOString()) : {}) },
      remove: ['claim_token', 'claimed_until'],
      ...(waits ? { add: { attempts: -1 } } : {}),
    },
    heldClaim(token),
  );
};
