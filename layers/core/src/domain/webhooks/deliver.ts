import { createHash, createHmac, randomUUID } from 'node:crypto';
import type { Deps } from '../../runtime/deps.ts';
import { deliveryStore, webhookStore, type DeliveryRecord, type WebhookRecord } from '../../table/webhooks.ts';
import { endpointLimits } from '../../table/webhook-limits.ts';
import type { PostResult, CheckedTarget } from '../../ports/webhook-poster.ts';
import { signingSecrets } from './webhook.ts';
import { checkTarget, TargetRefused } from './targets.ts';

/** Delivery rules (spec §6 Delivery behavior, §8 Webhooks). */
export const DELIVERY = {
  /** Waits after the 1st, 2nd, … 6th failed attempt; a 7th failure exhausts the delivery. */
  retryDelaysMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000],
  lifetimeMs: 24 * 3_600_000,
  maxInFlight: 8,
  requestTimeoutMs: 10_000,
  maxRetryAfterSeconds: 3_600,
  disableAfterExhausted: 20,
  /** How long a claim on a delivery (and an in-flight slot) lasts: the request timeout plus margin. */
  leaseMs: 30_000,
  /** How long a job waits for an in-flight place of an endpoint that answers briskly. */
  limitWaitMs: 5_000,
  /**
   * An endpoint whose oldest request in flight has run this long is slow: a job that finds its
   * places taken goes back on the queue at once instead of holding a worker (spec §6: each
   * endpoint has its own queue), so a slow receiver does not pace the others.
   */
  slowHoldMs: 1_000,
  /**
   * Back on the queue, a job that found a slow endpoint full waits 1 s, then a second more every
   * fourth time, up to this (and up to as much again at random): a backlog of minutes keeps the
   * endpoint's places filled, one that lasts polls less and less often.
   */
  busyDelayMaxSeconds: 32,
  /** The longest delay SQS can hold a message; longer waits go through the scheduler. */
  maxQueueDelayMs: 900_000,
  /**
   * A place in a second is taken only this long before the second ends at the latest, so the
   * request reaches the receiver within that second: counted where it arrives, a second still
   * holds at most the rate (a request sent at the end of one second would land in the next).
   */
  secondMarginMs: 250,
} as const;

/** A message of the webhook queue: one event for one endpoint. */
export interface DeliveryJob {
  readonly teamId: string;
  readonly webhookId: string;
  readonly eventId: string;
  /** How many times this job found the endpoint's in-flight places all taken (sets its next wait). */
  readonly busy?: number;
}

/** The fan-out message on the events queue (written by publishEvents). */
export interface EventMessage {
  readonly eventId: string;
  readonly teamId: string;
  readonly type: string;
  /** A whole event's (handOverEvent): stored without a mark for fan-out to clear. */
  readonly createdAt?: string;
  readonly data?: Record<string, unknown>;
}

/** What the worker does with a job afterwards. */
type JobOutcome =
  | { readonly kind: 'done' }
  | { readonly kind: 'later'; readonly delaySeconds: number; readonly job: DeliveryJob };

/** What owners hear about: disabled, the last ten settled deliveries all exhausted, a backlog older than six hours. */
export type EndpointChange = 'disabled' | 'failing' | 'backlog';

/** How old the oldest waiting delivery of an endpoint may get before its owners hear of it. */
const BACKLOG_NOTICE_AFTER_MS = 6 * 3_600_000;

/** Hooks for what happens to an endpoint (owner notices). */
export interface DeliveryObserver {
  endpointChanged?(deps: Deps, w: WebhookRecord, change: EndpointChange): Promise<void>;
}

const done: JobOutcome = { kind: 'done' };

/**
 * The Standard Webhooks signature header: `v1,<base64 HMAC-SHA256>` of `{id}.{timestamp}.{body}`
 * keyed with the base64-decoded part of each `whsec_` secret, space-separated, first secret first.
 */
const signatureHeader = (
  secrets: readonly string[],
  messageId: string,
  timestampSeconds: number,
  body: string,
): string =>
  secrets
    .map(
      (s) =>
        `v1,${createHmac('sha256', Buffer.from(s.slice('whsec_'.length), 'base64'))
          .update(`${messageId}.${timestampSeconds}.${body}`)
          .digest('base64')}`,
    )
    .join(' ');

/** The headers of one attempt: webhook-* and the same three as svix-*. */
const deliveryHeaders = (w: WebhookRecord, d: DeliveryRecord, now: number): Record<string, string> => {
  const timestamp = Math.floor(now / 1000);
  const signature = signatureHeader(signingSecrets(w, now), d.messageId, timestamp, d.payload);
  return {
    'webhook-id': d.messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signature,
    'svix-id': d.messageId,
    'svix-timestamp': String(timestamp),
    'svix-signature': signature,
  };
};

/** The webhook body: the reference envelope. */
export const envelope = (e: { type: string; createdAt: string; data: Record<string, unknown> }): string =>
  JSON.stringify({ type: e.type, created_at: e.createdAt, data: e.data });

/** Puts a job on the webhook queue after `delayMs`: an SQS delay up to 15 minutes, the scheduler beyond. */
export const enqueueDelivery = async (deps: Deps, job: DeliveryJob, delayMs: number): Promise<void> => {
  const queueUrl = deps.config.WEBHOOK_QUEUE_URL;
  if (delayMs <= DELIVERY.maxQueueDelayMs) {
    await deps.queue.send(queueUrl, [{ body: job, delaySeconds: Math.max(0, Math.ceil(delayMs / 1000)) }]);
    return;
  }
  const at = deps.clock.now() + delayMs;
  const name = `wh-${createHash('sha256').update(`${job.webhookId}#${job.eventId}#${at}`).digest('hex').slice(0, 48)}`;
  await deps.scheduler.schedule({ name, at, queueUrl, body: job });
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * How long a job that found a slow endpoint full for the `busy`th time waits: a base of 1 s, a
 * second more every fourth time (up to `busyDelayMaxSeconds`), and up to as much again at random,
 * so the jobs that bounced together come back spread out, not in one wave.
 */
const busyDelaySeconds = (busy: number): number => {
  const base = Math.min(DELIVERY.busyDelayMaxSeconds, 1 + Math.floor((busy - 1) / 4));
  return base + Math.floor(Math.random() * (base + 1));
};

/**
 * The endpoint's limits are counted in the table so every worker shares them, in wall-clock
 * time whatever the injected clock says (they protect a real receiver). This waits for one of
 * the 8 in-flight places while the endpoint answers briskly: the place taken, or undefined when
 * the wait budget ran out or the endpoint is slow (its oldest request in flight has run `slowHoldMs`).
 */
const takeInFlight = async (deps: Deps, webhookId: string, holder: string): Promise<number | undefined> => {
  const giveUp = Date.now() + DELIVERY.limitWaitMs;
  for (let tries = 1; ; tries++) {
    const slot = await endpointLimits.takeSlot(
      deps,
      webhookId,
      DELIVERY.maxInFlight,
      holder,
      DELIVERY.leaseMs,
      Date.now(),
    );
    if (slot !== undefined) return slot;
    // At the first refusal and now and then after: free the places of workers that died holding
    // them, and see how long the live requests have run.
    if (tries === 1 || tries % 10 === 0) {
      const { reaped, liveUntil } = await endpointLimits.reapLapsed(deps, webhookId, DELIVERY.maxInFlight, Date.now());
      if (reaped > 0) continue;
      const oldestStart = Math.min(...liveUntil) - DELIVERY.leaseMs;
      if (Date.now() - oldestStart >= DELIVERY.slowHoldMs) return undefined;
    }
    if (Date.now() > giveUp) return undefined;
    await sleep(100 + Math.random() * 200);
  }
};

/**
 * Waits for a place among the requests of the current second, taken just before the request
 * goes out and early enough in the second for the request to arrive within it; a place taken too
 * late is not used.
 */
const takeSecond = async (deps: Deps, webhookId: string): Promise<void> => {
  const inTime = (second: number) => Date.now() < (second + 1) * 1000 - DELIVERY.secondMarginMs;
  for (;;) {
    const second = Math.floor(Date.now() / 1000);
    if (
      inTime(second) &&
      (await endpointLimits.takeSecond(deps, webhookId, deps.config.WEBHOOK_RATE_PER_SECOND, second)) &&
      inTime(second)
    )
      return;
    const wait = (second + 1) * 1000 - Date.now();
    if (wait > 0) await sleep(wait + Math.random() * 20);
  }
};

/** Seconds of a Retry-After header (delta seconds or an HTTP date), or undefined when unusable. */
const retryAfterSeconds = (value: string | undefined, now: number): number | undefined => {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
};

/**
 * Settles an exhausted delivery on its endpoint: after 20 consecutive exhausted deliveries the
 * endpoint is disabled; when the last ten settled deliveries all exhausted, owners hear of it.
 */
const settleExhausted = async (deps: Deps, current: WebhookRecord, observer: DeliveryObserver): Promise<void> => {
  const w = await webhookStore.settle(deps, current, 'exhausted');
  if (!w) return;
  if (w.consecutiveExhausted >= DELIVERY.disableAfterExhausted && (await webhookStore.disable(deps, w.teamId, w.id))) {
    await observer.endpointChanged?.(deps, { ...w, status: 'disabled' }, 'disabled');
  } else if (w.recentOutcomes.length >= 10 && w.recentOutcomes.every((o) => o === 'exhausted')) {
    await observer.endpointChanged?.(deps, w, 'failing');
  }
};

/** Only "the last ten all exhausted" and the consecutive count read the outcomes: a success matters after an exhausted one. */
const settleSuccess = async (deps: Deps, w: WebhookRecord): Promise<void> => {
  if (w.consecutiveExhausted > 0 || w.recentOutcomes.includes('exhausted'))
    await webhookStore.settle(deps, w, 'success');
};

const describeFailure = (error: unknown): string =>
  error instanceof TargetRefused
    ? `target refused: ${error.message}`
    : (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError'
      ? `no response within ${DELIVERY.requestTimeoutMs / 1000} s`
      : `connection failed: ${(error as Error).message}`;

/**
 * One job of the webhook queue: claims the delivery when it is due and no other worker holds
 * it, attempts it within the endpoint's limits, and records the attempt and what follows
 * (success, the next retry, or exhaustion). A worker that dies mid-request leaves its claim to
 * expire; the queue redelivers the job and the next worker attempts again with the same
 * webhook-id.
 */
export const deliverWebhook = async (
  deps: Deps,
  job: DeliveryJob,
  observer: DeliveryObserver = {},
): Promise<JobOutcome> => {
  // The in-flight place first: a job of a full endpoint goes back on the queue having written nothing else.
  const holder = randomUUID();
  const slot = await takeInFlight(deps, job.webhookId, holder);
  if (slot === undefined) {
    const busy = (job.busy ?? 0) + 1;
    return {
      kind: 'later',
      delaySeconds: busyDelaySeconds(busy),
      job: { ...job, busy },
    };
  }
  let held = true;
  const release = async () => {
    if (!held) return;
    held = false;
    await endpointLimits.releaseSlot(deps, job.webhookId, slot, holder);
  };
  try {
    return await attempt(deps, job, observer, release);
  } finally {
    await release();
  }
};

/** The delivery itself, holding one of the endpoint's in-flight places until `release`. */
const attempt = async (
  deps: Deps,
  job: DeliveryJob,
  observer: DeliveryObserver,
  release: () => Promise<void>,
): Promise<JobOutcome> => {
  const now = deps.clock.now();
  const d = await deliveryStore.claim(deps, job.teamId, job.webhookId, job.eventId, now + 1_000, DELIVERY.leaseMs);
  if (!d) {
    const row = await deliveryStore.get(deps, job.teamId, job.webhookId, job.eventId);
    // Another worker holds it: look again after its claim; if that worker died, this attempts.
    if (row?.status === 'attempting' && row.claimedUntil !== null)
      return { kind: 'later', delaySeconds: Math.max(1, Math.ceil((row.claimedUntil - now) / 1000) + 1), job };
    // Gone, settled, or not due yet (an early copy: the row's own job comes at the due time).
    return done;
  }
  const w = await webhookStore.get(deps, job.teamId, job.webhookId);
  const expired = now >= d.queuedAt + DELIVERY.lifetimeMs;
  if (!w || w.status === 'disabled' || expired) {
    const reason = expired ? 'exhausted' : !w ? 'endpoint_deleted' : 'endpoint_disabled';
    await deliveryStore.release(deps, d, {
      status: 'failed',
      failures: d.failures,
      nextAttemptAt: null,
      endReason: reason,
    });
    if (expired && w) await settleExhausted(deps, w, observer);
    return done;
  }

  // A delivery still waiting six hours after it was queued: the endpoint has a backlog.
  if (now - d.queuedAt > BACKLOG_NOTICE_AFTER_MS) await observer.endpointChanged?.(deps, w, 'backlog');

  const attemptAt = deps.clock.now();
  let result: PostResult | undefined;
  let failure: string | undefined;
  try {
    const target: CheckedTarget = await checkTarget(w.endpoint, deps.config.WEBHOOK_TARGETS, deps.dns);
    await takeSecond(deps, w.id);
    result = await deps.webhookPoster.post(
      target,
      deliveryHeaders(w, d, attemptAt),
      d.payload,
      DELIVERY.requestTimeoutMs,
    );
  } catch (error) {
    failure = describeFailure(error);
  } finally {
    // The place is held for the request only; the bookkeeping below does not keep the receiver waiting.
    await release();
  }
  const after = deps.clock.now();
  const attempt = {
    id: deps.ids.next(),
    eventId: d.eventId,
    httpStatusCode: result?.status ?? 0,
    response: result?.excerpt ?? failure ?? '',
    sentAt: new Date(attemptAt).toISOString(),
  };
  const retention = deps.config.WEBHOOK_DELIVERY_RETENTION_DAYS;

  if (result && result.status >= 200 && result.status < 300) {
    await deliveryStore.release(
      deps,
      d,
      { status: 'success', failures: d.failures, nextAttemptAt: null },
      attempt,
      retention,
    );
    await settleSuccess(deps, w);
    return done;
  }
  const retryAfter = result?.status === 429 ? retryAfterSeconds(result.retryAfter, after) : undefined;
  let failures = d.failures;
  let nextAt: number | undefined;
  if (retryAfter !== undefined && retryAfter <= DELIVERY.maxRetryAfterSeconds) {
    // Honoured, and not counted as an attempt.
    nextAt = after + retryAfter * 1000;
  } else {
    failures += 1;
    const wait = DELIVERY.retryDelaysMs[failures - 1];
    if (wait !== undefined) nextAt = after + wait;
  }
  if (nextAt === undefined) {
    await deliveryStore.release(
      deps,
      d,
      { status: 'failed', failures, nextAttemptAt: null, endReason: 'exhausted' },
      attempt,
      retention,
    );
    await settleExhausted(deps, w, observer);
    return done;
  }
  // Past the lifetime, the next run only drops it: at the 24-hour mark, not before.
  const due = Math.min(nextAt, d.queuedAt + DELIVERY.lifetimeMs);
  // The job is queued before the row says pending, so a crash between leaves a job, never a stranded row.
  await enqueueDelivery(deps, { teamId: job.teamId, webhookId: job.webhookId, eventId: job.eventId }, due - after);
  await deliveryStore.release(deps, d, { status: 'pending', failures, nextAttemptAt: due }, attempt, retention);
  return done;
};

/** POST /webhooks/{id}/events/{event_id}/replay: the event goes out again now, with a fresh lifetime. */
export const replayDelivery = async (deps: Deps, d: DeliveryRecord): Promise<void> => {
  await deliveryStore.requeue(deps, d, deps.clock.now(), deps.config.WEBHOOK_DELIVERY_RETENTION_DAYS);
  await enqueueDelivery(deps, { teamId: d.teamId, webhookId: d.webhookId, eventId: d.eventId }, 0);
};
