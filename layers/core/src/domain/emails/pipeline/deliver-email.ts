import { noteRecent, noteRecentCall } from '../../../adapters/aws/counters.ts';
import type { Deps } from '../../../runtime/deps.ts';
import { keys } from '../../../table/keys.ts';
import { getItem } from '../../../table/ops.ts';
import { TransportError } from '../../../ports/mail-transport.ts';
import { isDue, type EmailItem, type SendJob } from '../email.ts';
import { bareAddress, wireAddress } from '../rules/addresses.ts';
import {
  answeredProviderCall,
  awaitProviderWindow,
  HANDOFF_MS,
  providerWindowBeyond,
} from '../../../table/send-slots.ts';
import { CALL_TOLERANCE_MS } from '../../../table/call-log.ts';
import { skewExcessMs } from '../../../table/line-rate.ts';
import { laneInstant, takeBroadcastSlot, takeSendSlot } from '../../../table/send-line.ts';
import { laneAt, shardCount, shardOf } from '../../../table/line-shards.ts';
import { composeMessage } from './compose-message.ts';
import { loadDomain, trackingOrigin } from '../../domains/domain.ts';
import { unsubscribeUrl } from '../../audience/unsubscribe-url.ts';
import { countOutcome } from '../../deliverability/guardrail.ts';
import { liftTenantPause, pauseForTenant, tenantFor } from '../../deliverability/tenants.ts';
import { countMetrics } from '../../metrics/count-metrics.ts';
import { broadcastCanceled, broadcastOutcome, broadcastSlotWait } from '../../broadcasts/recipient-outcome.ts';
import { broadcastRate } from '../../broadcasts/plan.ts';
import { keepProviderMessageId } from '../../mailboxes/sent-message-id.ts';
import * as providerLine from './provider-line.ts';
import {
  CLAIM_LEASE_MS,
  CLAIM_GRACE_MS,
  claimable,
  keepFromSweeper,
  claim,
  finish,
  settleOutcome,
  release,
} from './email-claim.ts';

/** Transient failures (throttling, 5xx) are retried this many times before the email fails. */
const MAX_ATTEMPTS = 12;
/** How long an email of a team whose tenant SES paused waits before it tries again (no attempt spent). */
const TENANT_PAUSE_RETRY_SECONDS = 60;

/** Open and click tracking of the sending domain (a domain deleted meanwhile tracks nothing). */
const trackingOf = async (deps: Deps, e: EmailItem) => {
  const domain = await loadDomain(deps, e.team_id, e.domain_id).catch(() => undefined);
  return {
    open: domain?.openTracking === true,
    click: domain?.clickTracking === true,
    origin: domain ? trackingOrigin(domain, deps.config) : '',
  };
};

/** What the worker does with the job afterwards: a retry goes back on the queue as `job`, after the delay. */
export type Outcome =
  | { readonly kind: 'done' }
  | { readonly kind: 'retry'; readonly delaySeconds: number; readonly job: SendJob };

const done: Outcome = { kind: 'done' };

/**
 * The longest a send worker waits in-process for its place's instant; a place further ahead
 * sends the job back on the queue, to return within this of it (the queue's delays are whole
 * seconds, so it comes back early, never late).
 */
export const WAIT_IN_WORKER_MS = 2_000;

/** Bytes of raw message per millisecond of hand-off ahead of the instant (serializing and signing take longer for a large message). */
const HANDOFF_BYTES_PER_MS = 50_000;
/** The longest hand-off, and how many windows a send tries before its job comes back a second later. */
const MAX_HANDOFF_MS = 1_500;
const MAX_WINDOW_TRIES = 5;

/**
 * How much longer than WAIT_IN_WORKER_MS a claimed email, its message built, may wait for its
 * call: a job sent back comes back no sooner than a second later (the queue's least delay), with
 * a release and a claim written, so a call due within that second more is better waited for.
 */
const CLAIMED_EXTRA_WAIT_MS = 1_000;

/** The longest delay of a queued message (SQS: 15 minutes). */
const MAX_QUEUE_DELAY_SECONDS = 900;

/**
 * A scheduled email's job that came before its time (EventBridge Scheduler fires anywhere in the
 * minute of its instant) waits the rest on the queue; one further ahead than a queue's delay was
 * made for an earlier time (the email was moved since): the schedule of its new time brings it.
 */
const untilDue = (deps: Deps, e: EmailItem, job: SendJob): Outcome => {
  const wait = Math.ceil((Date.parse(e.scheduled_at!) - deps.clock.now()) / 1000);
  return wait <= MAX_QUEUE_DELAY_SECONDS ? { kind: 'retry', delaySeconds: Math.max(1, wait), job } : done;
};

/** A job of a parked region (or a send SES refused for its account: not the email's fault) waits, queued; no attempt counted. */
const waitParked = async (deps: Deps, e: EmailItem, { place: _, ...job }: SendJob, parked: providerLine.ParkedLine) => {
  const { back, delaySeconds } = providerLine.parkedReturn(deps, parked);
  return (await keepFromSweeper(deps, e, back)) ? ({ kind: 'retry', delaySeconds, job } as const) : done;
};

/** The queue delay that brings a job back within WAIT_IN_WORKER_MS of `at`. */
const backBefore = (deps: Deps, at: number): number =>
  Math.max(1, Math.ceil((at - deps.clock.now() - WAIT_IN_WORKER_MS) / 1000));

/**
 * Sends one queued email to the provider exactly once: claims it (so no two workers send it),
 * paces to the provider rate, builds the MIME message, sends, and records `sent` with an
 * email.sent event. `read`: the email as the worker read it for its batch (a consistent read, as
 * this one). Throttling and transient faults are retried with backoff; permanent
 * refusals end in `failed` with the reason.
 */
export const deliverEmail = async (
  deps: Deps,
  job: SendJob,
  read?: { email: EmailItem | undefined },
): Promise<Outcome> => {
  const e = read
    ? read.email
    : ((await getItem(deps, keys.email.item(job.teamId, job.emailId))) as EmailItem | undefined);
  if (!e) return done;
  if (!isDue(e, deps.clock.now())) return untilDue(deps, e, job);
  if (e.broadcast_id) {
    const early = broadcastSlotWait(deps, e);
    if (early > 0) return { kind: 'retry', delaySeconds: early, job };
    if (await broadcastCanceled(deps, e)) return done;
  }
  const rate = await providerLine.refreshedRate(deps, e.region);
  const recipients = Math.max(1, e.to.length + e.cc.length + e.bcc.length);
  const { place: booked, shard: _, ...unbooked } = job;
  // The shard of the region's line it takes its place on (line-shards.ts): the one it booked, or its id's.
  const lane = laneAt(e.region, rate, job.shard ?? shardOf(e.id, shardCount(rate)), skewExcessMs(deps));
  const { shard } = lane;
  // A job back well before its place's instant (the queue's delay is capped at 15 minutes) waits again.
  if (booked !== undefined && laneInstant(lane, booked) - deps.clock.now() > WAIT_IN_WORKER_MS) {
    return { kind: 'retry', delaySeconds: backBefore(deps, laneInstant(lane, booked)), job };
  }
  // An email sent, failed or held by a live claim takes no place: the job is done (the holder of a
  // claim queues its own job again, and the sweeper one whose holder died).
  if (!claimable(e, deps.clock.now())) {
    await settleOutcome(deps, e);
    return done;
  }
  // Nor while the provider sends nothing in its region (provider-line.ts): it waits, queued.
  const parked = await providerLine.lineParked(deps, e.region);
  if (parked) return waitParked(deps, e, job, parked);
  // Nor is its call plannable within the wait, by the call log as this worker last saw it (the
  // calls run behind the line: the first free instant, and the jobs ahead of it in the line): back
  // then, without claiming the email first.
  const beyond =
    booked !== undefined && !e.broadcast_id
      ? providerWindowBeyond(deps, e.region, booked, WAIT_IN_WORKER_MS, recipients, shard)
      : undefined;
  if (beyond !== undefined) {
    deps.counters.callsDeferred++;
    return (await keepFromSweeper(deps, e, beyond))
      ? { kind: 'retry', delaySeconds: backBefore(deps, beyond), job }
      : done;
  }
  let place: number;
  if (e.broadcast_id) {
    // A broadcast send takes its place within the coming second before it claims the email: one
    // turned away (the broadcast share of this second is taken) comes back in a second having
    // written nothing to the email.
    const slot = await takeBroadcastSlot(deps, e.region, broadcastRate(rate), shard);
    if (!slot) {
      deps.counters.broadcastTurnedAway++;
      return (await keepFromSweeper(deps, e, deps.clock.now() + 1000))
        ? { kind: 'retry', delaySeconds: 1, job: unbooked }
        : done;
    }
    place = slot.place;
  } else if (booked !== undefined) place = booked;
  else {
    // No long waits for a place: one further ahead goes back on the queue, booked, until then
    // (without a claim: nothing is sent yet; the email's due time moves there only when the
    // sweeper could take it for lost meanwhile).
    const slot = await takeSendSlot(deps, e.region, recipients, shard);
    // Its turn: the place's instant, or later when the calls run behind the line.
    const due = Math.max(
      slot.at,
      providerWindowBeyond(deps, e.region, slot.place, WAIT_IN_WORKER_MS, recipients, shard) ?? 0,
    );
    if (due - deps.clock.now() > WAIT_IN_WORKER_MS) {
      return (await keepFromSweeper(deps, e, due))
        ? { kind: 'retry', delaySeconds: backBefore(deps, due), job: { ...unbooked, place: slot.place, shard } }
        : done;
    }
    place = slot.place;
  }
  // With SES tenants on, the team sends as its own tenant, with its own configuration set (made
  // ready before the claim: a failure there holds nothing).
  const tenant = await tenantFor(deps, e.team_id, e.region, e.domain_id);
  const token = await claim(deps, e);
  if (!token) {
    await settleOutcome(deps, e);
    return done;
  }
  let providerMessageId: string;
  try {
    // Topic sends and broadcasts carry the service's one-click unsubscribe link (for the first recipient).
    const unsubscribe =
      e.topic_id || e.broadcast_id
        ? await unsubscribeUrl(deps, { teamId: e.team_id, email: bareAddress(e.to[0]!), topicId: e.topic_id })
        : null;
    const raw = await composeMessage(deps, e, unsubscribe, await trackingOf(deps, e));
    // The message is ready: the call goes out at the place's instant, through its provider window.
    // It is handed to the transport that long before the instant (longer for a larger message,
    // which takes longer to sign), and planned again with a longer hand-off when it missed it.
    let missed: number | undefined;
    let handoff = HANDOFF_MS + Math.ceil(raw.length / HANDOFF_BYTES_PER_MS);
    for (let tries = 1; ; tries++) {
      const window = await awaitProviderWindow(
        deps,
        e.region,
        place,
        WAIT_IN_WORKER_MS + CLAIMED_EXTRA_WAIT_MS,
        missed,
        handoff,
        recipients,
        shard,
      );
      if (window.kind === 'later') {
        deps.counters.callsDeferred++;
        await release(deps, e, token, window.at);
        return { kind: 'retry', delaySeconds: backBefore(deps, window.at), job: { ...unbooked, place, shard } };
      }
      try {
        ({ providerMessageId } = await deps.mail.send({
          region: e.region,
          // The provider takes ASCII only: a stored Unicode domain (a contact's) goes in Punycode.
          from: wireAddress(e.from),
          recipients: [...e.to, ...e.cc, ...e.bcc].map(wireAddress),
          raw,
          tags: { team_id: e.team_id, email_id: e.id },
          ...(tenant ? { tenant: { name: tenant.tenantName, configurationSet: tenant.configurationSet } } : {}),
          window: {
            at: window.at,
            toleranceMs: CALL_TOLERANCE_MS,
            answered: (at) => answeredProviderCall(deps, e.region, window.at, at, shard),
          },
        }));
        noteRecent(deps.counters.sendLateMs, window.at - laneInstant(lane, place));
        noteRecentCall(deps.counters.callPlannedAt, e.id, window.at);
        break;
      } catch (error) {
        if (!(error instanceof TransportError && error.kind === 'missed')) throw error;
        deps.counters.callsMissed++;
        missed = window.at;
        handoff = Math.min(MAX_HANDOFF_MS, 2 * handoff + (error.lateMs ?? 0));
        if (tries === MAX_WINDOW_TRIES) {
          await release(deps, e, token, deps.clock.now() + 1000);
          return { kind: 'retry', delaySeconds: 1, job: { ...unbooked, place, shard } };
        }
      }
    }
  } catch (error) {
    // Anything but a classified provider refusal is ambiguous (the provider may have accepted):
    // keep the claim, fail the job, and let the provider's events or the lease settle it.
    if (!(error instanceof TransportError)) throw error;
    // SES paused the team's own tenant: the team is paused, and the email waits (no attempt spent).
    if (await pauseForTenant(deps, e.team_id, e.region, tenant, error)) {
      await release(deps, e, token, deps.clock.now() + TENANT_PAUSE_RETRY_SECONDS * 1000);
      return { kind: 'retry', delaySeconds: TENANT_PAUSE_RETRY_SECONDS, job: { ...unbooked, tenantPaused: true } };
    }
    if (error.kind === 'paused') {
      const parkedNow = await providerLine.parkOn(deps, e.region, error);
      await release(deps, e, token, parkedNow.checkAt);
      return waitParked(deps, e, job, parkedNow);
    }
    if (error.kind === 'ambiguous') {
      // No answer: the claim is kept until its Send event or its lease and grace (provider-line.ts).
      const delaySeconds = providerLine.uncertainWaitSeconds(CLAIM_LEASE_MS, CLAIM_GRACE_MS);
      deps.logger.warn("the provider's answer was lost: not sent again before its events say", { delaySeconds });
      deps.metrics.addMetric('SendsUncertain', 'Count', 1);
      return { kind: 'retry', delaySeconds, job: unbooked };
    }
    const attempts = (e.attempts ?? 0) + 1;
    if (error.kind === 'permanent' || attempts >= MAX_ATTEMPTS) {
      const reason = error.message;
      deps.logger.warn('the provider refused the email', { reason, attempts });
      deps.metrics.addMetric('EmailsFailed', 'Count', 1);
      const failed = await finish(
        deps,
        e,
        token,
        { status: 'failed', failure_reason: reason, updated_at: new Date(deps.clock.now()).toISOString() },
        { type: 'email.failed', extra: { failed: { reason } } },
        broadcastOutcome(deps, e, 'failed'),
      );
      if (failed) await countMetrics(deps, e, { failed: 1 });
      return done;
    }
    await release(deps, e, token);
    return { kind: 'retry', delaySeconds: Math.min(300, 2 ** attempts + Math.random()), job: unbooked };
  }
  deps.logger.info('email handed to the provider', { provider_message_id: providerMessageId });
  // SES took the team's mail again: its tenant is no longer paused, and neither is the team.
  if (job.tenantPaused) await liftTenantPause(deps, e.team_id);
  deps.metrics.addMetric('EmailsSent', 'Count', 1);
  const now = new Date(deps.clock.now()).toISOString();
  // The provider's Message-ID replaced ours (SES writes its own): the email shows what recipients see.
  const wire = deps.mail.messageIdOf?.(providerMessageId, e.region);
  const recorded = await finish(
    deps,
    wire ? { ...e, message_id: wire } : e,
    token,
    {
      status: 'sent',
      provider_message_id: providerMessageId,
      ...(wire ? { message_id: wire } : {}),
      updated_at: now,
      sent_at: now,
    },
    { type: 'email.sent' },
    broadcastOutcome(deps, e, 'sent'),
  );
  // Counted once per email: only the claim holder's one successful `sent` transition counts.
  if (recorded)
    await Promise.all([countOutcome(deps, e.team_id, e.id, 'sent', e.region), countMetrics(deps, e, { sent: 1 })]);
  if (wire) await keepProviderMessageId(deps, e, wire);
  return done;
};
