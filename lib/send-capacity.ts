/**
 * The concurrency each worker that sends through SES needs to hold the send rate, derived at
 * synthesis (offline) from the rate the deployment states and the time a send takes (docs/aws.md,
 * Sending at high rates).
 */

/** SQS event sources take a maximum concurrency from 2 to 1,000 (Lambda's ScalingConfig). */
export const EVENT_SOURCE_CONCURRENCY = { min: 2, max: 1000 } as const;

/**
 * Milliseconds a send job holds its invocation on AWS, apart from waiting for its place: the
 * worker's table round trips in sequence (9, `npm run cost` counts them: its place in the line, the
 * claim, the call log's plan, the status and its event...; about 10 ms each) and SES's answer to
 * SendEmail (about 100 ms), with the MIME message built between them. An estimate: set
 * `mailstack:sendMsPerEmail` from the send worker's measured Duration once it runs.
 */
export const DEFAULT_SEND_MS_PER_EMAIL = 250;

/**
 * How much slower than the estimate a batch may run before the rate suffers: the slowest job of a
 * batch holds the invocation, cold starts, a slow SES answer.
 */
export const SEND_HEADROOM = 2;

/**
 * Invocations at once of each sending worker, by default at most this many: three sending
 * workers (send, send-later, broadcast) at 250 each leave 250 of Lambda's default account
 * concurrency (1,000 per region) to the API and the other workers.
 */
export const DEFAULT_SEND_CONCURRENCY_CEILING = 250;

export interface SendCapacityInput {
  /** Recipients a second the send line goes at most (`mailstack:providerRatePerSecond`). */
  readonly ratePerSecond: number;
  /** Milliseconds a send job holds its invocation, apart from waiting for its place. */
  readonly msPerEmail: number;
  /** Jobs an invocation takes at once (the event source's batch size). */
  readonly batchSize: number;
  /** The most the derived figure may be (`mailstack:sendConcurrencyCeiling`). */
  readonly ceiling: number;
}

export interface SendCapacity {
  /** Invocations at once the rate needs, headroom included. */
  readonly needed: number;
  /** The figure the event source gets: `needed`, within 2 and the ceiling. */
  readonly concurrency: number;
  /** The send rate that concurrency holds by the same arithmetic (recipients a second). */
  readonly holds: number;
}

/** The rate C invocations hold: C × B / (H × t + B / R) = R, solved for R (whole recipients a second). */
const holdsAt = (concurrency: number, msPerEmail: number, batchSize: number): number =>
  Math.floor(((concurrency - 1) * batchSize) / ((SEND_HEADROOM * msPerEmail) / 1000));

/**
 * An invocation takes a batch of B jobs and runs them together: it is busy for one job's time t
 * (times the headroom H) plus the spread of its B places in the line (B / rate), and sends B
 * emails in that time. Holding the rate R takes C invocations with C × B / (H × t + B / R) ≥ R,
 * so C = ⌈H × R × t / B⌉ + 1 (rate 14: 2; 1,000: 51, at 250 ms and batches of 10).
 */
export const sendCapacity = (input: SendCapacityInput): SendCapacity => {
  const { ratePerSecond: rate, msPerEmail, batchSize, ceiling } = input;
  for (const [name, value] of Object.entries(input))
    if (!Number.isFinite(value) || value <= 0)
      throw new Error(`sendCapacity: ${name} must be a positive number, got ${JSON.stringify(value)}`);
  const needed = Math.ceil((rate * SEND_HEADROOM * msPerEmail) / 1000 / batchSize) + 1;
  const concurrency = Math.min(
    EVENT_SOURCE_CONCURRENCY.max,
    Math.max(EVENT_SOURCE_CONCURRENCY.min, Math.min(ceiling, needed)),
  );
  return { needed, concurrency, holds: holdsAt(concurrency, msPerEmail, batchSize) };
};

/** What the stack reads of its settings for a sending worker's concurrency. */
export interface SendCapacitySettings {
  readonly providerRatePerSecond: number;
  readonly sendCapacity: { readonly override?: number; readonly ceiling: number; readonly msPerEmail: number };
}

/**
 * The maximum concurrency of a sending worker's event source (its batch size, 10 unless set): the
 * figure `mailstack:sendConcurrency` names, else the one the rate needs up to the ceiling; with
 * what the rate needs and the rate the figure holds, so the stack can say when it falls short.
 */
export const sendWorkerConcurrency = (
  settings: SendCapacitySettings,
  worker: { readonly batchSize?: number },
): SendCapacity => {
  const { override, ceiling, msPerEmail } = settings.sendCapacity;
  const batchSize = worker.batchSize ?? 10;
  const derived = sendCapacity({ ratePerSecond: settings.providerRatePerSecond, msPerEmail, batchSize, ceiling });
  if (override === undefined) return derived;
  return { ...derived, concurrency: override, holds: holdsAt(override, msPerEmail, batchSize) };
};
