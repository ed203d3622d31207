import type { Deps } from '../runtime/deps.ts';
import { addSplit, shardsFor } from './bounded-counter.ts';
import { keys } from './keys.ts';

/**
 * A region's broadcast sends of one second, counted against the broadcast share (`ceiling`) of
 * that second. Every broadcast send writes it (1 WCU), so above ~1,000 a second one item would
 * pass its partition's limit: the share is split over `broadcastSecondShards(ceiling)` items, each
 * with its part of the ceiling (the parts sum to it exactly, so the share is never passed), and a
 * send whose item is full tries the others before it waits for the next second.
 */
export const broadcastSecondShards = (ceiling: number): number =>
  shardsFor(ceiling, keys.pacing.broadcastSecondShardSends, keys.pacing.broadcastSecondMaxShards);

/** Counts one broadcast send in the second's shares; false when every part of the share is spent. */
export const takeBroadcastSecond = async (
  deps: Deps,
  region: string,
  second: number,
  ceiling: number,
  start = Math.floor(Math.random() * keys.pacing.broadcastSecondMaxShards),
): Promise<boolean> =>
  (await addSplit(
    deps,
    (shard) => keys.pacing.broadcastSecond(region, second, shard),
    broadcastSecondShards(ceiling),
    start,
    { add: { sends: 1 }, ceilings: { sends: ceiling }, expiresAt: second + 120 },
  )) !== undefined;
