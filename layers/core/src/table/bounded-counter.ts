import type { Deps } from '../runtime/deps.ts';
import {
  addToCounters,
  batchGetItems,
  transact,
  updateItem,
  type Condition,
  type Item,
  type Key,
  type Write,
} from './ops.ts';

/**
 * A counter spread over shards (each its own partition key), with an exact limit.
 *
 * The count is the sum of the shards' `emails_sent`. A capped counter's units are cut into
 * segments at its stops (the lines whose crossing the caller must see, and the limit): each shard
 * holds a `room`, its share of the current segment, and takes units from it with one conditional
 * write (the fast path: `room >= n`, and `lim` still the bounds the rooms were cut for). The rooms
 * of a segment add up to one unit less than the segment: its last unit, and a request its shard
 * has no room for, go by a rebalance, which reads every shard (consistent), counts the units on
 * the exact total, and writes every shard's new room in one transaction conditioned on the counts
 * it read. So the limit is exact (a refusal is on a total that can only have grown since), and a
 * stop is crossed only in a rebalance, which knows the units' exact numbers.
 */

/** The segment ends: the distinct stops under `max`, and `max`. */
export const segmentEnds = (stops: readonly number[], max: number): number[] => [
  ...new Set([...stops.filter((s) => s > 0 && s < max), max].sort((a, b) => a - b)),
];

/** `units` spread over `shards`: the first ones take one more when they do not divide evenly. */
export const spread = (units: number, shards: number): number[] =>
  Array.from({ length: shards }, (_, i) => Math.floor(units / shards) + (i < units % shards ? 1 : 0));

/**
 * The shards' rooms once the count is `total`: the units of the segment `total` is in, but its
 * last one, spread evenly; `end` is that segment's end (the limit, and no room, once past it).
 */
export const roomsAfter = (
  total: number,
  ends: readonly number[],
  shards: number,
): { rooms: number[]; end: number } => {
  const end = ends.find((e) => e > total) ?? ends.at(-1)!;
  return { rooms: spread(Math.max(0, end - total - 1), shards), end };
};

/** How a count went: the units' numbers when a rebalance counted them (`before` + 1 to `after`), and their segment's end. */
export interface Counted {
  readonly before?: number;
  readonly after?: number;
  /** The end of the segment the units are in (every one of them, when `before` is not given). */
  readonly segmentEnd: number;
}

export interface CounterShards {
  /** The key of shard `i` (0 to `shards - 1`). */
  readonly keyOf: (shard: number) => Key;
  readonly shards: number;
  /** The shard to try first (spreads the writes: pick it at random or from an id). */
  readonly shard: number;
  /** When the table deletes the shards (epoch seconds), if ever. */
  readonly expiresAt?: number;
}

/** Rebalances tried before giving up under contention (each re-reads the shards; one contender wins each round). */
const MAX_REBALANCES = 100;
const pause = (attempt: number) =>
  new Promise((r) => setTimeout(r, Math.min(200, 5 * 2 ** attempt) * (0.5 + Math.random() / 2)));

/** True when the rebalance is written; false when a shard moved since it was read (or another transaction held it). */
const rebalanced = async (deps: Deps, writes: readonly Write[]): Promise<boolean> => {
  try {
    return (await transact(deps, writes)).ok;
  } catch (error) {
    if ((error as Error).name === 'TransactionCanceledException') return false;
    throw error;
  }
};

/** The shard with the most room for `n` under the bounds `lim`, if any has room enough. */
const roomiest = (read: readonly (Item | undefined)[], lim: string, n: number): number | undefined => {
  let best: number | undefined;
  read.forEach((row, i) => {
    if (
      row?.lim === lim &&
      Number(row.room) >= n &&
      (best === undefined || Number(row.room) > Number(read[best]!.room))
    )
      best = i;
  });
  return best;
};

/** The sum of the shards' counts, from the items read (missing shards count 0). */
export const sumOf = (rows: readonly Item[], attr = 'emails_sent'): number =>
  rows.reduce((n, r) => n + Number(r[attr] ?? 0), 0);

/** The items of every shard (eventually consistent unless said). */
export const readShards = (deps: Deps, c: Pick<CounterShards, 'keyOf' | 'shards'>, consistent = false) =>
  batchGetItems(
    deps,
    Array.from({ length: c.shards }, (_, i) => c.keyOf(i)),
    consistent,
  );

/** Adds `n` with no limit (one write to the chosen shard); its room shrinks too, so a capped count sees it. */
export const addUncapped = async (deps: Deps, c: CounterShards, n: number): Promise<void> => {
  await updateItem(deps, c.keyOf(c.shard), {
    add: { emails_sent: n, room: -n },
    ...(c.expiresAt !== undefined ? { expiresAt: c.expiresAt } : {}),
  });
};

/**
 * Counts `n` units within `ends` (the last is the limit); undefined when they would pass the
 * limit, unless `forced` (then they are counted past it). A batch is counted whole or not at all.
 */
export const addWithin = async (
  deps: Deps,
  c: CounterShards,
  n: number,
  ends: readonly number[],
  forced = false,
): Promise<Counted | undefined> => {
  const lim = ends.join(',');
  const take = (shard: number) =>
    updateItem(
      deps,
      c.keyOf(shard),
      { add: { emails_sent: n, room: -n }, ...(c.expiresAt !== undefined ? { expiresAt: c.expiresAt } : {}) },
      {
        and: [
          { attr: 'lim', eq: lim },
          { attr: 'room', ge: n },
        ],
      },
    );
  const fast = await take(c.shard);
  if (fast) return { segmentEnd: Number(fast.seg_end) };
  for (let attempt = 0; ; attempt++) {
    const rows = await readShards(deps, c, true);
    const byPk = new Map(rows.map((r) => [String(r.pk), r]));
    const read = Array.from({ length: c.shards }, (_, i) => byPk.get(c.keyOf(i).pk));
    const before = sumOf(rows);
    const max = ends.at(-1)!;
    if (!forced && before + n > max) return undefined;
    // Another shard still has the room: take it there, as the fast path would.
    const roomy = roomiest(read, lim, n);
    if (roomy !== undefined) {
      const taken = await take(roomy);
      if (taken) return { segmentEnd: Number(taken.seg_end) };
      continue;
    }
    const after = before + n;
    const { rooms, end } = roomsAfter(after, ends, c.shards);
    const writes: Write[] = read.map((row, i) => {
      const counted = row?.emails_sent;
      const when: Condition =
        counted === undefined ? { attr: 'emails_sent', absent: true } : { attr: 'emails_sent', eq: counted };
      return {
        update: c.keyOf(i),
        change: {
          set: { room: rooms[i], lim, seg_end: end },
          ...(i === c.shard ? { add: { emails_sent: n } } : {}),
          ...(c.expiresAt !== undefined ? { expiresAt: c.expiresAt } : {}),
        },
        when,
      };
    });
    if (await rebalanced(deps, writes)) return { before, after, segmentEnd: end };
    if (attempt >= MAX_REBALANCES)
      throw new Error(
        `The counter ${c.keyOf(0).pk} (${c.shards} shards) kept changing under ${MAX_REBALANCES} rebalances; the request can be retried.`,
      );
    await pause(attempt);
  }
};

/** How many shards a ceiling counter takes: one per `perShard` of its ceiling, between 1 and `most`. */
export const shardsFor = (ceiling: number, perShard: number, most: number): number =>
  Math.min(most, Math.max(1, Math.ceil(ceiling / perShard)));

/**
 * Adds to ceiling counters split over `shards` items, each holding its part of every ceiling (the
 * parts sum to the ceiling, so it is never passed): from shard `start`, a full one sends the count
 * to the next; undefined once every shard is full. One write while a shard has room.
 */
export const addSplit = async (
  deps: Deps,
  keyOf: (shard: number) => Key,
  shards: number,
  start: number,
  counters: {
    add: Readonly<Record<string, number>>;
    ceilings: Readonly<Record<string, number>>;
    expiresAt?: number;
    set?: Readonly<Record<string, unknown>>;
  },
): Promise<Item | undefined> => {
  for (let k = 0; k < shards; k++) {
    const shard = (start + k) % shards;
    const parts = Object.fromEntries(
      Object.entries(counters.ceilings).map(([attr, ceiling]) => [attr, spread(ceiling, shards)[shard]!]),
    );
    if (Object.values(parts).some((part) => part === 0)) continue;
    const counted = await addToCounters(deps, keyOf(shard), { ...counters, ceilings: parts });
    if (counted) return counted;
  }
  return undefined;
};
