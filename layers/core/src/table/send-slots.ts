import type { Deps } from '../runtime/deps.ts';
import { updateItemOrRead } from './ops.ts';
import { keys } from './keys.ts';
import { sleepUntil } from '../ports/clock.ts';
import { placeInstant, placeSpacingMs, seenKeyOf, WINDOW_MARGIN_MS } from './send-line.ts';

/**
 * The provider's send rate, held against every one-second window, calendar or sliding.
 *
 * Two parts. The **line** (`send-line.ts`) hands out places in order across every worker (one counter): place p
 * is due at p × spacing, spacing = (1 s + WINDOW_MARGIN_MS) / rate, so a backlog fills the time
 * ahead at the rate, in order, and mail accepted later cannot jump it. The **call log** guards the
 * provider itself: the planned instants of the region's last `rate` calls, in order, and a call is
 * planned only at or after the last of them and at least 1 s + WINDOW_MARGIN_MS after the one
 * `rate` calls back, in one conditional write (on the log's sequence number) right before the
 * call. So no second, calendar or sliding, can hold more than `rate` calls, however late a job
 * comes back from its queue or a worker runs; and capacity a late job left unused is taken by the
 * next call ready, so lateness never accumulates.
 */

/** How far after asking for a plan a call is planned: room for the conditional write to come back before the instant. */
const HOLD_LEAD_MS = 30;
/** A call that would go out later than its planned instant by more than this is planned again (it could crowd the calls planned after it); the rest of the margin is the request's jitter. */
export const CALL_TOLERANCE_MS = 15;

/** What holding a provider call gave: the instant to call at, or a later instant to come back for. */
export type Hold = { readonly kind: 'held'; readonly at: number } | { readonly kind: 'later'; readonly at: number };

/**
 * A region's call log as this process last saw it (it tries a plan on it first; a refusal brings
 * the log as it stands), with the furthest place in the line planned so far and its instant.
 */
interface SeenLog {
  readonly seq: number;
  readonly calls: readonly number[];
  readonly topPlace: number;
  readonly topAt: number;
}
const lastSeen = new Map<string, SeenLog>();

/** The earliest a call of `place` is planned from: its instant, and never sooner than the plan's write can come back and the hand-off be made. */
const planFrom = (place: number, rate: number, now: number, handoffMs: number): number =>
  Math.max(placeInstant(place, rate), now + HOLD_LEAD_MS + handoffMs);

/** The span that holds at most `rate` calls: a second and the margin. */
const SPAN_MS = 1000 + WINDOW_MARGIN_MS;

/** Whether `calls` (ascending) has no `rate + 1` calls within one span. */
const withinRate = (calls: readonly number[], rate: number): boolean => {
  for (let i = 0; i + rate < calls.length; i++) if (calls[i + rate]! - calls[i]! < SPAN_MS) return false;
  return true;
};

/** `calls` with `at` in its place (ascending). */
const withCall = (calls: readonly number[], at: number): number[] => {
  const i = calls.findIndex((c) => c > at);
  return i < 0 ? [...calls, at] : [...calls.slice(0, i), at, ...calls.slice(i)];
};

/**
 * The earliest instant at or after `from` that `calls` (ascending) can take one more call at
 * within the rate: `from` itself, or the first instant a call leaves a span that is full.
 */
export const firstFreeInstant = (calls: readonly number[], rate: number, from: number): number => {
  for (const candidate of [from, ...calls.map((c) => c + SPAN_MS).filter((c) => c > from)]) {
    if (withinRate(withCall(calls, candidate), rate)) return candidate;
  }
  return Math.max(from, (calls.at(-1) ?? from) + SPAN_MS);
};

/**
 * Plans the provider call of `place` in the region's call log: at its instant, or as soon after
 * as the log allows (up to `horizonMs` from now; past it, `later`). One conditional write on the
 * log's sequence number records the plan, so two workers never plan against the same log; calls
 * more than a span in the past leave it. `replacing`: this call's earlier plan, which it gives
 * back (it could not go out then).
 */
export const holdProviderWindow = async (
  deps: Deps,
  region: string,
  place: number,
  horizonMs: number,
  replacing?: number,
  handoffMs = 0,
): Promise<Hold> => {
  const rate = deps.config.PROVIDER_RATE_PER_SECOND;
  const key = keys.pacing.calls(region, rate);
  const seenKey = seenKeyOf(deps, key);
  // One plan at a time per process: each starts from the log the last one wrote, so the
  // conditional write races only other processes.
  const before = planning.get(seenKey) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((resolve) => {
    done = resolve;
  });
  planning.set(seenKey, mine);
  await before;
  try {
    return await planCall(deps, key, seenKey, rate, place, horizonMs, replacing, handoffMs);
  } finally {
    done();
    if (planning.get(seenKey) === mine) planning.delete(seenKey);
  }
};

/**
 * Without a write: the earliest instant this process's last view of the region's call log could
 * plan `place`'s call at, when that is more than `horizonMs` from now (undefined otherwise, or
 * when it has no view). The log as it stands holds at least those calls, so the call could not be
 * planned sooner: a job can go back to its queue without claiming its email and planning first.
 */
export const providerWindowBeyond = (
  deps: Deps,
  region: string,
  place: number,
  horizonMs: number,
): number | undefined => {
  const rate = deps.config.PROVIDER_RATE_PER_SECOND;
  const seen = lastSeen.get(seenKeyOf(deps, keys.pacing.calls(region, rate)));
  if (!seen) return undefined;
  const now = deps.clock.now();
  const at = Math.max(
    firstFreeInstant(
      seen.calls.filter((c) => c > now - SPAN_MS),
      rate,
      planFrom(place, rate, now, HANDOFF_MS),
    ),
    queuedTurn(seen, place, rate, now),
  );
  return at - now > horizonMs ? at : undefined;
};

/**
 * When the calls run behind the line (a backlog on busy workers), the instant `place`'s turn comes
 * if every place between the furthest one planned and it is called first, at the line's spacing:
 * jobs waiting for their places come back one after another, in the line's order, instead of all
 * at the first free instant (where all but a second's worth find no room and go back again).
 * 0 when the log plans nothing ahead (it is not behind) or the place is not past the furthest.
 */
const queuedTurn = (seen: SeenLog, place: number, rate: number, now: number): number =>
  seen.topAt > now && place > seen.topPlace ? seen.topAt + (place - seen.topPlace - 1) * placeSpacingMs(rate) : 0;

/** The plan in progress in this process, per call log. */
const planning = new Map<string, Promise<void>>();

const planCall = async (
  deps: Deps,
  key: ReturnType<typeof keys.pacing.calls>,
  seenKey: string,
  rate: number,
  place: number,
  horizonMs: number,
  replacing: number | undefined,
  handoffMs: number,
): Promise<Hold> => {
  let log: SeenLog = lastSeen.get(seenKey) ?? { seq: 0, calls: [], topPlace: -1, topAt: 0 };
  for (let attempt = 0; ; attempt++) {
    const now = deps.clock.now();
    const kept = log.calls.filter(
      (c, i) =>
        c > now - SPAN_MS && !(replacing !== undefined && c === replacing && log.calls.indexOf(replacing) === i),
    );
    const at = firstFreeInstant(kept, rate, planFrom(place, rate, now, handoffMs));
    if (at - now > horizonMs || attempt === 8) return { kind: 'later', at };
    const calls = withCall(kept, at);
    const top = place > log.topPlace ? { topPlace: place, topAt: at } : { topPlace: log.topPlace, topAt: log.topAt };
    const written = await updateItemOrRead(
      deps,
      key,
      { set: { calls, seq: log.seq + 1, top_place: top.topPlace, top_at: top.topAt } },
      log.seq === 0
        ? {
            or: [
              { attr: 'seq', absent: true },
              { attr: 'seq', eq: 0 },
            ],
          }
        : { attr: 'seq', eq: log.seq },
    );
    if (written.ok) {
      lastSeen.set(seenKey, { seq: log.seq + 1, calls, ...top });
      return { kind: 'held', at };
    }
    log = {
      seq: Number(written.item?.seq ?? 0),
      calls: ((written.item?.calls ?? []) as unknown[]).map(Number),
      topPlace: Number(written.item?.top_place ?? -1),
      topAt: Number(written.item?.top_at ?? 0),
    };
    lastSeen.set(seenKey, log);
  }
};

/** How long before its instant a call is handed to the transport, which lets it go at the instant itself (MailTransport `window`). */
export const HANDOFF_MS = 15;

/**
 * Waits for the provider call of `place`: plans it in the call log, and sleeps until just before
 * the planned instant (HANDOFF_MS), planning again when woken too late for it. `held`: hand the
 * call to the transport now, with the instant.
 */
export const awaitProviderWindow = async (
  deps: Deps,
  region: string,
  place: number,
  horizonMs: number,
  replacing?: number,
  handoffMs = HANDOFF_MS,
): Promise<Hold> => {
  let planned = replacing;
  for (let attempt = 0; attempt < 3; attempt++) {
    const hold = await holdProviderWindow(deps, region, place, horizonMs, planned, handoffMs);
    if (hold.kind !== 'held') return hold;
    await sleepUntil(deps.clock, hold.at - handoffMs);
    if (deps.clock.now() - hold.at <= CALL_TOLERANCE_MS) return hold;
    planned = hold.at;
  }
  return { kind: 'later', at: deps.clock.now() + 1000 };
};
