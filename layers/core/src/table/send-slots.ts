import type { Deps } from '../runtime/deps.ts';
import { updateItemOrRead } from './ops.ts';
import type { Lane } from './line-shards.ts';
import { heldAgainst, logOf } from './call-answers.ts';
import { sleepUntil } from '../ports/clock.ts';
import { laneInstant, placeSpacingMs } from './send-line.ts';
import {
  type Call,
  CALL_TOLERANCE_MS,
  firstFreeInstant,
  storableCall,
  storedCall,
  unanswered,
  withCall,
} from './call-log.ts';

export { answeredProviderCall } from './call-answers.ts';

/**
 * The provider's send rate, held against every one-second window, calendar or sliding.
 *
 * Two parts. The **line** (`send-line.ts`) hands out places in order across every worker (one
 * counter), so a backlog fills the time ahead at the rate, in order, and mail accepted later
 * cannot jump it. The **call log** guards the provider itself: the region's recent calls, each
 * with two bounds on when the provider saw it, its planned instant (the transport never lets it go
 * sooner) and the latest it can have been seen (its answer's arrival once the caller reported it,
 * else the instant plus UNANSWERED_MS). In the log's order, a call is planned only a second after
 * the latest bound of the call `rate` places before it, and only while it leaves the same second
 * to the calls planned after it, in one conditional write (on the log's sequence number). So no
 * second, calendar or sliding, can hold more than `rate` calls, however late a job comes back from
 * its queue or a worker runs; capacity a late job left unused is taken by the next call ready; and
 * a call answered in 3 ms costs the rate 3 ms a second, not the worst case.
 *
 * A call is planned just before its instant (PLAN_AHEAD_MS), when the calls a second before it
 * have been answered; the answers travel in the log with the caller's next plan.
 * Bounds are widened by the clocks' skew and the log is split in shards: line-shards.ts.
 */

/** How far after asking for a plan a call is planned: room for the conditional write to come back before the instant. */
const HOLD_LEAD_MS = 30;
/**
 * How far ahead of its instant a call may be planned (besides the hold's lead and the hand-off).
 * The call `rate` places before it is then more than half a second in the past, answered (most in
 * a few milliseconds), so its answer bounds the plan, not UNANSWERED_MS; yet a stall of the table
 * or the host of a few hundred milliseconds still leaves the plan in time for its instant.
 */
const PLAN_AHEAD_MS = 400;

/** What holding a provider call gave: the instant to call at, or a later instant to come back for. */
export type Hold = { readonly kind: 'held'; readonly at: number } | { readonly kind: 'later'; readonly at: number };

/**
 * A region's call log as this process last saw it (it tries a plan on it first; a refusal brings
 * the log as it stands), with the furthest place in the line planned so far and its instant.
 */
interface SeenLog {
  readonly seq: number;
  readonly calls: readonly Call[];
  readonly topPlace: number;
  readonly topAt: number;
}
const lastSeen = new Map<string, SeenLog>();

/** The earliest a call of `place` is planned from: its instant, and never sooner than the plan's write can come back and the hand-off be made. */
const planFrom = (place: number, lane: Lane, now: number, handoffMs: number): number =>
  Math.max(laneInstant(lane, place), now + HOLD_LEAD_MS + handoffMs);

/**
 * Plans the provider call of `place` in the region's call log: at its instant, or as soon after
 * as the log allows (up to `horizonMs` from now; past it, `later`). One conditional write on the
 * log's sequence number records the plan, so two workers never plan against the same log; calls
 * seen more than a second ago leave it. `replacing`: this call's earlier plan, which it gives
 * back (it could not go out then).
 */
export const holdProviderWindow = async (
  deps: Deps,
  region: string,
  place: number,
  horizonMs: number,
  replacing?: number,
  handoffMs = 0,
  recipients = 1,
  shard = 0,
): Promise<Hold> => {
  const log = logOf(deps, region, shard);
  const { seenKey } = log;
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
    return await planCall(deps, log, place, horizonMs, replacing, handoffMs, recipients);
  } finally {
    done();
    if (planning.get(seenKey) === mine) planning.delete(seenKey);
  }
};

/**
 * The earliest instant this process's last view of the region's call log (with the answers it got
 * since) could plan `place`'s call at: the first free instant from its place's, or its turn when
 * the calls run behind the line. The log as it stands holds at least those calls, so the call
 * could not be planned sooner. Undefined when this process has no view of the log.
 */
const viewedTurn = (
  deps: Deps,
  region: string,
  place: number,
  handoffMs: number,
  recipients: number,
  shard: number,
): number | undefined => {
  const { lane, seenKey, spread } = logOf(deps, region, shard);
  const seen = lastSeen.get(seenKey);
  if (!seen) return undefined;
  const now = deps.clock.now();
  return Math.max(
    firstFreeInstant(
      heldAgainst(seen.calls, seenKey, now, lane.rate),
      lane.budget,
      planFrom(place, lane, now, handoffMs),
      recipients,
      spread,
    ),
    queuedTurn(seen, place, lane, now),
  );
};

/**
 * Without a write: the earliest instant this process's view of the region's call log could plan
 * `place`'s call at, when that is more than `horizonMs` from now (undefined otherwise, or when it
 * has no view): a job can go back to its queue without claiming its email and planning first.
 */
export const providerWindowBeyond = (
  deps: Deps,
  region: string,
  place: number,
  horizonMs: number,
  recipients = 1,
  shard = 0,
): number | undefined => {
  const at = viewedTurn(deps, region, place, HANDOFF_MS, recipients, shard);
  return at !== undefined && at - deps.clock.now() > horizonMs ? at : undefined;
};

/**
 * When the calls run behind the line (a backlog on busy workers), the instant `place`'s turn comes
 * if every place between the furthest one planned and it is called first, at the line's spacing:
 * jobs waiting for their places come back one after another, in the line's order, instead of all
 * at the first free instant (where all but a second's worth find no room and go back again).
 * 0 when the log plans nothing ahead (it is not behind) or the place is not past the furthest.
 */
const queuedTurn = (seen: SeenLog, place: number, lane: Lane, now: number): number =>
  seen.topAt > now && place > seen.topPlace
    ? seen.topAt + (place - seen.topPlace - 1) * placeSpacingMs(lane.budget, lane.widenMs)
    : 0;

/** The plan in progress in this process, per call log. */
const planning = new Map<string, Promise<void>>();

const planCall = async (
  deps: Deps,
  { lane, key, seenKey, spread }: ReturnType<typeof logOf>,
  place: number,
  horizonMs: number,
  replacing: number | undefined,
  handoffMs: number,
  recipients: number,
): Promise<Hold> => {
  let log: SeenLog = lastSeen.get(seenKey) ?? { seq: 0, calls: [], topPlace: -1, topAt: 0 };
  for (let attempt = 0; ; attempt++) {
    const now = deps.clock.now();
    const kept = heldAgainst(log.calls, seenKey, now, lane.rate, replacing);
    const at = firstFreeInstant(kept, lane.budget, planFrom(place, lane, now, handoffMs), recipients, spread);
    if (at - now > horizonMs || attempt === 8) return { kind: 'later', at };
    const calls = withCall(kept, unanswered(at, recipients, spread.skewMs));
    // The call's last place is the furthest it takes (a call of n recipients takes n places).
    const last = place + recipients - 1;
    const top = last > log.topPlace ? { topPlace: last, topAt: at } : { topPlace: log.topPlace, topAt: log.topAt };
    const written = await updateItemOrRead(
      deps,
      key,
      { set: { calls: calls.map(storableCall), seq: log.seq + 1, top_place: top.topPlace, top_at: top.topAt } },
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
      calls: ((written.item?.calls ?? []) as unknown[]).map(storedCall),
      topPlace: Number(written.item?.top_place ?? -1),
      topAt: Number(written.item?.top_at ?? 0),
    };
    lastSeen.set(seenKey, log);
  }
};

/** How long before its instant a call is handed to the transport, which lets it go at the instant itself (MailTransport `window`). */
export const HANDOFF_MS = 15;

/** A call waiting in this process for its plan, and how to hand it its hold. */
interface Waiter {
  readonly deps: Deps;
  readonly place: number;
  readonly handoffMs: number;
  readonly recipients: number;
  readonly replacing: number | undefined;
  /** The latest instant its call may go at (its wait in the worker). */
  readonly until: number;
  readonly settle: (hold: Promise<Hold>) => void;
}
/** The calls of one call log waiting in this process, in the line's order (a call planned again first), and its planner. */
interface Room {
  readonly region: string;
  readonly shard: number;
  readonly waiters: Waiter[];
  running: boolean;
  /** Ends the planner's sleep: a call came that goes before the one it sleeps for. */
  wake?: () => void;
}
/** Per call log, this process's room. */
const rooms = new Map<string, Room>();

/**
 * The planner of one call log in this process: hands the first waiting call (the line's order)
 * its plan once the log could take it within PLAN_AHEAD_MS, sleeping until then; one that could
 * not go within its wait gets `later`. Calls planned in the line's order never crowd one another,
 * and none is planned so far ahead that the call `rate` places before it is still unanswered.
 */
const runRoom = async (seenKey: string, room: Room) => {
  room.running = true;
  try {
    while (room.waiters.length > 0) {
      const head = room.waiters[0]!;
      const { deps } = head;
      const now = deps.clock.now();
      const { lane, spread } = logOf(deps, room.region, room.shard);
      const seen = lastSeen.get(seenKey);
      const calls = seen ? heldAgainst(seen.calls, seenKey, now, lane.rate, head.replacing) : [];
      const at = firstFreeInstant(
        calls,
        lane.budget,
        planFrom(head.place, lane, now, head.handoffMs),
        head.recipients,
        spread,
      );
      const wakeAt = at - PLAN_AHEAD_MS - HOLD_LEAD_MS - head.handoffMs;
      if (at <= head.until && wakeAt > now) {
        await Promise.race([
          sleepUntil(deps.clock, wakeAt),
          new Promise<void>((resolve) => {
            room.wake = resolve;
          }),
        ]);
        room.wake = undefined;
        continue;
      }
      room.waiters.shift();
      const hold =
        at > head.until
          ? Promise.resolve<Hold>({ kind: 'later', at })
          : holdProviderWindow(
              deps,
              room.region,
              head.place,
              head.until - now,
              head.replacing,
              head.handoffMs,
              head.recipients,
              room.shard,
            );
      head.settle(hold);
      await hold.catch(() => undefined);
    }
  } finally {
    room.running = false;
  }
};

/**
 * The plan of `place`'s call, in its turn among this process's calls waiting for the same log: at
 * its place's instant or the first the log allows after it, planned no more than PLAN_AHEAD_MS
 * ahead; `later` when that is past `horizonMs` from now. A clock that cannot wait (a test's)
 * plans at once.
 */
const planInTurn = (
  deps: Deps,
  region: string,
  place: number,
  horizonMs: number,
  replacing: number | undefined,
  handoffMs: number,
  recipients: number,
  shard: number,
): Promise<Hold> => {
  if (!deps.clock.sleep)
    return holdProviderWindow(deps, region, place, horizonMs, replacing, handoffMs, recipients, shard);
  const { seenKey, lane } = logOf(deps, region, shard);
  const room = rooms.get(seenKey) ?? { region, shard: lane.shard, waiters: [], running: false };
  rooms.set(seenKey, room);
  return new Promise<Hold>((resolve, reject) => {
    const waiter: Waiter = {
      deps,
      place,
      handoffMs,
      recipients,
      replacing,
      until: deps.clock.now() + horizonMs,
      settle: (hold) => hold.then(resolve, reject),
    };
    const i = room.waiters.findIndex((w) =>
      replacing !== undefined ? w.replacing === undefined : w.replacing === undefined && w.place > place,
    );
    if (i < 0) room.waiters.push(waiter);
    else room.waiters.splice(i, 0, waiter);
    if (i === 0) room.wake?.();
    if (!room.running) void runRoom(seenKey, room);
  });
};

/**
 * Waits for the provider call of `place`: its plan in its turn (`planInTurn`), then sleeps until
 * just before the planned instant (HANDOFF_MS), planning again when woken too late for it.
 * `held`: hand the call to the transport now, with the instant; report its answer with
 * `answeredProviderCall`.
 */
export const awaitProviderWindow = async (
  deps: Deps,
  region: string,
  place: number,
  horizonMs: number,
  replacing?: number,
  handoffMs = HANDOFF_MS,
  recipients = 1,
  shard = 0,
): Promise<Hold> => {
  let planned = replacing;
  for (let attempt = 0; attempt < 3; attempt++) {
    const hold = await planInTurn(deps, region, place, horizonMs, planned, handoffMs, recipients, shard);
    if (hold.kind !== 'held') return hold;
    await sleepUntil(deps.clock, hold.at - handoffMs);
    if (deps.clock.now() - hold.at <= CALL_TOLERANCE_MS) return hold;
    planned = hold.at;
  }
  return { kind: 'later', at: deps.clock.now() + 1000 };
};
