import { MAX_RECIPIENTS } from '../limits.ts';

/**
 * The send line's shards: past a rate one item cannot carry, a region's line and its call log are
 * split across N shards, each a line and a call log of its own holding a budget of the rate; the
 * budgets sum to the rate, so the provider never sees more than the rate in any second when each
 * shard holds its budget. Pure: no table, no clock.
 *
 * Why: the call log of one shard holds its last `budget` calls (about 22 bytes each) and is
 * written on each call; a shard of 100 a second is written 100 times a second, about 3 write units
 * each (a 2.2 KB item): 300 units a second, well under a partition's 1,000, and its line item
 * (about 100 bytes) 100 units at most. So N = ⌈rate / SHARD_RATE⌉.
 *
 * Each shard's call log holds its budget, a call's recipients spread at the region's rate as the
 * provider counts them (call-log.ts `Spread`); the budgets sum to the rate, so the provider's count
 * over any second does too.
 *
 * Clocks: each worker plans and calls by its own clock. Every bound in a call log is widened by
 * the most two workers' clocks may differ by (PROVIDER_CLOCK_SKEW_MS: a reported answer by all of
 * it, an unanswered call and the line's second by its excess over the millisecond their margins
 * allow for), so a call planned a second after a bound by one clock is a second after it by any
 * other within the skew.
 *
 * A call carries up to MAX_RECIPIENTS recipients and spends one of them per recipient: it must fit
 * in one shard's second, so no shard's budget is below MAX_RECIPIENTS (N ≤ ⌊rate / MAX_RECIPIENTS⌋).
 * A wide call then never needs places on two shards. A rate up to
 * SHARD_RATE keeps one shard: the line and call log of one item, as they were before shards.
 */

/** The most a shard of the line carries a second (its call log's calls, its line's places). */
export const SHARD_RATE = 100;

/** How many shards a line of `rate` a second has: 1 up to SHARD_RATE; every budget at least MAX_RECIPIENTS. */
export const shardCount = (rate: number): number =>
  Math.max(1, Math.min(Math.ceil(rate / SHARD_RATE), Math.floor(rate / MAX_RECIPIENTS)));

/** Shard `shard`'s budget of `rate` split across `shards`: ⌊rate / N⌋, one more for the first rate mod N; they sum to the rate. */
export const shardBudget = (rate: number, shards: number, shard: number): number =>
  Math.floor(rate / shards) + (shard % shards < rate % shards ? 1 : 0);

/**
 * The shard an email's send takes its place on: a hash of its id, so a backlog spreads evenly and
 * each shard keeps its own order (the shards move at the same pace: order is kept to within a
 * shard's fluctuation), and a retried job finds the same shard.
 */
export const shardOf = (id: string, shards: number): number => {
  if (shards <= 1) return 0;
  let h = 2166136261;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619);
  return (h >>> 0) % shards;
};

/** One shard of a region's line: the region's rate, its shards, which one, and the budget it holds. */
export interface Lane {
  readonly region: string;
  readonly rate: number;
  readonly shards: number;
  readonly shard: number;
  readonly budget: number;
  /** What the line's second is widened by beyond its margin, for clocks that differ more than Lambda's (send-line.ts). */
  readonly widenMs: number;
}

/** Shard `shard` (any number: taken modulo the count, as a job booked at another count may hold) of the line of `rate` in `region`. */
export const laneAt = (region: string, rate: number, shard = 0, widenMs = 0): Lane => {
  const shards = shardCount(rate);
  const s = ((shard % shards) + shards) % shards;
  return { region, rate, shards, shard: s, budget: shardBudget(rate, shards, s), widenMs };
};
