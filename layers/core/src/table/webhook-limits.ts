import type { Deps } from '../runtime/deps.ts';
import { keys } from './keys.ts';
import { addToCounters, batchGetItems, deleteItem, putItem, type Condition } from './ops.ts';

/**
 * How an endpoint's per-second rate is split over the second's shards: shares that sum to the
 * rate exactly (the first `rate % shards` shards take one more), so the shards together never
 * admit more than the rate in a second.
 */
export const rateShares = (rate: number, shards: number): number[] =>
  Array.from({ length: shards }, (_, s) => Math.floor(rate / shards) + (s < rate % shards ? 1 : 0));

/** The order in which `count` places (slots, shards) are tried from `start`: each once, wrapping around. */
export const tryOrder = (start: number, count: number): number[] =>
  Array.from({ length: count }, (_, i) => (start + i) % count);

const randomStart = (count: number) => Math.floor(Math.random() * count);

/**
 * The held in-flight places of an endpoint, read in one request: consistently when freeing lapsed
 * ones, eventually (half the read units) when only choosing which free place to try, since the
 * conditional put decides.
 */
const placesOf = async (
  deps: Deps,
  webhookId: string,
  max: number,
  consistent = true,
): Promise<{ slot: number; holder: string; until: number }[]> =>
  (
    await batchGetItems(
      deps,
      Array.from({ length: max }, (_, slot) => keys.webhook.inFlight(webhookId, slot)),
      consistent,
    )
  ).map((p) => ({
    slot: Number(String(p.pk).slice(String(p.pk).lastIndexOf('#') + 1)),
    holder: p.holder,
    until: p.until,
  }));

/**
 * The per-endpoint limits, shared by every worker through conditional writes on items of their
 * own partition keys, so no one key takes every delivery of a busy endpoint: each of the `max`
 * in-flight places is an item, and each second's count is split over shards whose shares sum to
 * the rate.
 */
export const endpointLimits = {
  /**
   * Takes one of the endpoint's `max` in-flight places for `leaseMs`: the places are read in one
   * request, then the free ones tried from a random one, each by a conditional put that only
   * succeeds while the place is free. Returns the place taken, or undefined when every place is
   * held (a lapsed lease is freed by `reapLapsed`, not here). A full endpoint costs one read.
   */
  async takeSlot(
    deps: Deps,
    webhookId: string,
    max: number,
    holder: string,
    leaseMs: number,
    now: number,
  ): Promise<number | undefined> {
    const held = new Set((await placesOf(deps, webhookId, max, false)).map((p) => p.slot));
    for (const slot of tryOrder(randomStart(max), max)) {
      if (held.has(slot)) continue;
      const taken = await putItem(
        deps,
        { ...keys.webhook.inFlight(webhookId, slot), type: 'webhook_in_flight', holder, until: now + leaseMs },
        { exists: false },
      );
      if (taken) return slot;
    }
    return undefined;
  },

  /** Gives a place back (once: only while the holder, and its lease end when given, still hold it). */
  async releaseSlot(deps: Deps, webhookId: string, slot: number, holder: string, until?: number): Promise<void> {
    const when: Condition =
      until === undefined
        ? { attr: 'holder', eq: holder }
        : {
            and: [
              { attr: 'holder', eq: holder },
              { attr: 'until', eq: until },
            ],
          };
    await deleteItem(deps, keys.webhook.inFlight(webhookId, slot), when);
  },

  /**
   * Frees the places of holders whose lease lapsed (workers that died mid-request): how many,
   * and when the live leases end (each holder's lease is its start plus the lease length).
   */
  async reapLapsed(
    deps: Deps,
    webhookId: string,
    max: number,
    now: number,
  ): Promise<{ reaped: number; liveUntil: number[] }> {
    const places = await placesOf(deps, webhookId, max);
    const lapsed = places.filter((p) => p.until < now);
    for (const p of lapsed) await endpointLimits.releaseSlot(deps, webhookId, p.slot, p.holder, p.until);
    return { reaped: lapsed.length, liveUntil: places.filter((p) => p.until >= now).map((p) => p.until) };
  },

  /**
   * Counts one request in the current second on one of the second's shards, tried from a random
   * one, each up to its share of `rate`; false when every shard already holds its share.
   */
  async takeSecond(deps: Deps, webhookId: string, rate: number, second: number): Promise<boolean> {
    const shares = rateShares(rate, keys.webhook.secondShards);
    for (const shard of tryOrder(randomStart(shares.length), shares.length)) {
      const share = shares[shard]!;
      if (share === 0) continue;
      const counted = await addToCounters(deps, keys.webhook.second(webhookId, second, shard), {
        add: { requests: 1 },
        ceilings: { requests: share },
        expiresAt: second + 120,
      });
      if (counted !== undefined) return true;
    }
    return false;
  },
};
