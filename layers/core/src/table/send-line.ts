import type { Deps } from '../runtime/deps.ts';
import { updateItemOrRead, type Condition } from './ops.ts';
import { takeBroadcastSecond } from './broadcast-second.ts';
import { keys } from './keys.ts';
import { lineLane } from './line-rate.ts';
import type { Lane } from './line-shards.ts';

/**
 * The provider's send line: places handed out in order across every worker (one counter per
 * region and rate). Place p is due at p × spacing, spacing = (1 s + WINDOW_MARGIN_MS) / rate, so a
 * backlog fills the time ahead at the rate, in order, and mail accepted later cannot jump it.
 * The call log (`send-slots.ts`) then holds each call to the provider's rate. Past one shard's
 * rate (`line-shards.ts`) a region has N lines, each at its shard's budget of the rate.
 */

/**
 * What the line's second is widened by: it keeps the places from running ahead of the calls, which
 * the call log holds to a second after each call `rate` places before was answered (a few
 * milliseconds on a brisk provider; a call never answered, up to UNANSWERED_MS). It costs the
 * line 1 − 1000 / (1000 + margin) of the rate: 0.5%. When answers come slower, the calls run
 * behind the line and its jobs wait their turn (`providerWindowBeyond`). Clocks allowed to differ
 * by more than a millisecond (PROVIDER_CLOCK_SKEW_MS) widen it by the excess (`widenMs`).
 */
export const WINDOW_MARGIN_MS = 5;

/** Milliseconds between two places of the line at `rate` (a shard's budget), its second widened by `widenMs`. */
export const placeSpacingMs = (rate: number, widenMs = 0): number => (1000 + WINDOW_MARGIN_MS + widenMs) / rate;

/** The instant place `place` is due (epoch ms). */
export const placeInstant = (place: number, rate: number, widenMs = 0): number =>
  Math.ceil(place * placeSpacingMs(rate, widenMs));

/** The instant place `place` of a shard of the line is due (epoch ms). */
export const laneInstant = (lane: Lane, place: number): number => placeInstant(place, lane.budget, lane.widenMs);

/** The key of a shard's line. */
const lineKey = (lane: Lane) => keys.pacing.line(lane.region, lane.rate, lane.shard, lane.shards, lane.widenMs);

/** A place in the line and the instant it is due (epoch ms). */
export interface Place {
  readonly place: number;
  readonly at: number;
}

/** The first place of a shard's line due at or after `now`. */
const firstPlaceAt = (now: number, lane: Lane): number => Math.ceil(now / placeSpacingMs(lane.budget, lane.widenMs));

/**
 * Takes the next place in the region's line (or, for a call of `count` recipients, the next
 * `count` in a row, answering the first), never waiting for its instant: the next free one,
 * or, when the line has fallen behind (no sends lately), the first place due now, unless another
 * sender just restarted it. Senders asking while this process's last write to the line is in
 * flight (a backlog's jobs, a batch's records) form a group that takes its places in a row, in
 * one write, when that write is back: a backlog costs the line a write per round trip, not per
 * email, and the line's one item is not written at the backlog's rate. A sender alone writes at once.
 * `shard`: which shard of the region's line (line-shards.ts `shardOf`; 0 while it has one).
 */
export const takeSendSlot = async (deps: Deps, region: string, count = 1, shard = 0): Promise<Place> => {
  const lane = lineLane(deps, region, shard);
  const key = lineKey(lane);
  const seenKey = seenKeyOf(deps, key);
  const first = firstPlaceAt(deps.clock.now(), lane);
  const group = forming.get(seenKey) ?? formGroup(deps, key, seenKey, first);
  // A call of `count` recipients takes `count` places in a row (SES counts recipients): the first is its own.
  const index = group.size;
  group.size += Math.max(1, count);
  group.first = Math.max(group.first, first);
  return placeOf((await group.places)! + index, lane);
};

/** Senders taking their places in the line together: the first place any of them may take, how many they are, and the first of their places once written. */
interface LineGroup {
  first: number;
  size: number;
  places: Promise<number | undefined>;
}
/** Per line, the group still taking members (its write waits for the one in flight), and the write in flight. */
const forming = new Map<string, LineGroup>();
const inFlight = new Map<string, Promise<void>>();

/** A group whose write goes out once the line's write in flight is back (at once when none is); it takes members until then. */
const formGroup = (deps: Deps, key: ReturnType<typeof keys.pacing.line>, seenKey: string, first: number): LineGroup => {
  const group: LineGroup = {
    first,
    size: 0,
    places: (inFlight.get(seenKey) ?? Promise.resolve()).then(() => {
      forming.delete(seenKey);
      return takeLinePlace(deps, key, group.first, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, group.size);
    }),
  };
  const written = group.places.then(
    () => undefined,
    () => undefined,
  );
  inFlight.set(seenKey, written);
  void written.then(() => {
    if (inFlight.get(seenKey) === written) inFlight.delete(seenKey);
  });
  forming.set(seenKey, group);
  return group;
};

/** Each line's next free place as this process last wrote or read it (its first write follows it). */
const lineSeen = new Map<string, number>();
/** Each line's restart in flight from this process: senders at the same instant wait for it, then add. */
const restarting = new Map<string, Promise<unknown>>();

/**
 * `count` places of the line in a row, at or after `first` and before `horizon`: its next free
 * places (one conditional add), or from `first` when the line is behind it (one conditional
 * restart); the first of them is answered (a `horizon` is held for one place only). The write
 * tried first is the one the line as this process last saw it calls for (a line that fell behind
 * between one send and the next, as at a broadcast's pace, restarts in one write); a refusal
 * answers the line as it stands, so the second write is the right one unless another sender moved
 * the line meanwhile. Undefined when the line is full up to `horizon`, or after `tries` writes.
 */
const takeLinePlace = async (
  deps: Deps,
  key: ReturnType<typeof keys.pacing.line>,
  first: number,
  horizon: number,
  tries = Number.POSITIVE_INFINITY,
  count = 1,
): Promise<number | undefined> => {
  const seenKey = seenKeyOf(deps, key);
  const isBehind = () => {
    const seen = lineSeen.get(seenKey);
    return seen !== undefined && seen < first;
  };
  /** The write, and the line it answers (its `next`) noted as seen before anyone waiting on it resumes. */
  const write = async (change: Parameters<typeof updateItemOrRead>[2], when: Condition) => {
    const written = await updateItemOrRead(deps, key, change, when);
    const next = written.item?.next === undefined ? undefined : Number(written.item.next);
    if (next !== undefined) lineSeen.set(seenKey, next);
    return { ok: written.ok, next };
  };
  // Unknown: the add, the usual case under load (the line at or past now).
  let behind = isBehind();
  for (let attempt = 0; attempt < tries; attempt++) {
    // One restart at a time from this process (a batch of jobs arriving together): the others
    // wait for it and take the places after it with an add each.
    for (let pending = restarting.get(seenKey); behind && pending; pending = restarting.get(seenKey)) {
      await pending.catch(() => undefined);
      behind = isBehind();
    }
    let written: { ok: boolean; next: number | undefined };
    if (behind) {
      const restart = write(
        { set: { next: first + count } },
        {
          or: [
            { attr: 'next', absent: true },
            { attr: 'next', lt: first },
          ],
        },
      );
      restarting.set(seenKey, restart);
      try {
        written = await restart;
      } finally {
        if (restarting.get(seenKey) === restart) restarting.delete(seenKey);
      }
    } else
      written = await write(
        { add: { next: count } },
        Number.isFinite(horizon)
          ? {
              and: [
                { attr: 'next', ge: first },
                { attr: 'next', lt: horizon },
              ],
            }
          : { attr: 'next', ge: first },
      );
    const { next } = written;
    if (written.ok) return behind ? first : next! - count;
    if (next !== undefined && next >= horizon) return undefined;
    behind = next === undefined || next < first;
  }
  return undefined;
};

const placeOf = (place: number, lane: Lane): Place => ({ place, at: laneInstant(lane, place) });

/**
 * A broadcast send's place: due within the coming second only, never booked further ahead (so
 * transactional mail is never queued behind a broadcast), and only within the broadcast share of
 * the current second (a per-second counter with `ceiling`), so the rest of every second stays open
 * to transactional mail while a broadcast runs. Undefined: no place now; the job comes back in a second.
 */
export const takeBroadcastSlot = async (
  deps: Deps,
  region: string,
  ceiling: number,
  shard = 0,
): Promise<Place | undefined> => {
  const lane = lineLane(deps, region, shard);
  const now = deps.clock.now();
  const nowSecond = Math.floor(now / 1000);
  if (!(await takeBroadcastSecond(deps, region, nowSecond, ceiling))) return undefined;
  // Three writes at most: when senders race to restart an idle line, the ones that lose take a place in it after.
  const place = await takeLinePlace(deps, lineKey(lane), firstPlaceAt(now, lane), firstPlaceAt(now + 1000, lane), 3);
  return place === undefined ? undefined : placeOf(place, lane);
};

/** Whose view of a line or a call log this process keeps: the item's, in its table. */
export const seenKeyOf = (deps: Deps, key: { readonly pk: string }): string => `${deps.table}|${key.pk}`;
