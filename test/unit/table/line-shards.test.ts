import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_RECIPIENTS } from '@mailstack/core/limits';
import { laneAt, SHARD_RATE, shardBudget, shardCount, shardOf } from '@mailstack/core/table/line-shards';
import { firstFreeInstant, unanswered, UNANSWERED_MS } from '@mailstack/core/table/call-log';
import { keys } from '@mailstack/core/table/keys';

describe("the send line's shards", () => {
  it('keeps one shard up to SHARD_RATE a second, and past it ⌈rate / SHARD_RATE⌉', () => {
    expect([1, 14, 50, 99, 100].map(shardCount)).toEqual([1, 1, 1, 1, 1]);
    expect([101, 150, 200, 201, 1_000, 2_000, 2_001].map(shardCount)).toEqual([2, 2, 2, 3, 10, 20, 21]);
  });

  it('splits the rate into budgets that sum to it exactly, none above SHARD_RATE, and none below the widest call past one shard', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), (rate) => {
        const n = shardCount(rate);
        const budgets = Array.from({ length: n }, (_, i) => shardBudget(rate, n, i));
        expect(budgets.reduce((a, b) => a + b, 0)).toBe(rate);
        expect(Math.max(...budgets) - Math.min(...budgets)).toBeLessThanOrEqual(1);
        expect(Math.max(...budgets)).toBeLessThanOrEqual(Math.max(rate <= SHARD_RATE ? rate : 0, SHARD_RATE));
        // A call of MAX_RECIPIENTS recipients fits in any shard's second: it never needs two shards.
        if (n > 1) expect(Math.min(...budgets)).toBeGreaterThanOrEqual(MAX_RECIPIENTS);
      }),
    );
  });

  it('spreads emails evenly over the shards by their id, the same shard for the same id', () => {
    const counts = new Array<number>(10).fill(0);
    for (let i = 0; i < 10_000; i++) counts[shardOf(`em_${i.toString(36)}x${(i * 7919).toString(16)}`, 10)]!++;
    for (const c of counts) expect(Math.abs(c - 1_000)).toBeLessThan(150);
    expect(shardOf('em_abc', 10)).toBe(shardOf('em_abc', 10));
    expect(shardOf('em_abc', 1)).toBe(0);
  });

  it('reads a shard booked at another count modulo the count now; one shard keeps the keys of the line before shards', () => {
    expect(laneAt('eu-west-1', 1_000, 13)).toMatchObject({ shards: 10, shard: 3, budget: 100 });
    expect(laneAt('eu-west-1', 14, 5)).toMatchObject({ shards: 1, shard: 0, budget: 14 });
    expect(keys.pacing.line('eu-west-1', 14)).toEqual({ pk: 'PACE#eu-west-1', sk: 'PLACES#14' });
    expect(keys.pacing.calls('eu-west-1', 14)).toEqual({ pk: 'PACE#eu-west-1#CALLS#14', sk: 'PACE' });
    // Each shard its own partition; a changed count or widening starts new lines.
    const pks = new Set(Array.from({ length: 10 }, (_, i) => keys.pacing.calls('eu-west-1', 1_000, i, 10).pk));
    expect(pks.size).toBe(10);
    expect(keys.pacing.line('eu-west-1', 1_000, 3, 10).pk).not.toBe(keys.pacing.line('eu-west-1', 1_000, 3, 11).pk);
    expect(keys.pacing.line('eu-west-1', 14, 0, 1, 99)).not.toEqual(keys.pacing.line('eu-west-1', 14));
  });
});

describe("the call log's spread and skew", () => {
  it("widens every unanswered bound by the clocks' skew, so a call a second after it is a second after it by any clock", () => {
    expect(unanswered(100, 1, 99).by).toBe(100 + UNANSWERED_MS + 99);
    // At a budget of 1: the next call waits a second past the skew-widened bound.
    expect(firstFreeInstant([unanswered(100, 1, 99)], 1, 200, 1, { skewMs: 99 })).toBe(100 + UNANSWERED_MS + 99 + 1000);
  });

  it("spreads a shard's wide call at the region's rate, as the provider counts it, and plans no call inside its spread", () => {
    // A 50-recipient call on a shard of 50 in a region of 1,000 (its recipients 1 ms apart), then one more a second later.
    const wide = { at: 0, by: 3, n: 50 };
    const next = { at: 1_003, by: 1_006 };
    // The call after: a second past the wide call's second recipient, 1 ms on (spread at the shard's 50, 20 ms on).
    expect(firstFreeInstant([wide, next], 50, 1_003, 1, { stepRate: 1_000 })).toBe(1_004);
    expect(firstFreeInstant([wide, next], 50, 1_003, 1)).toBe(1_023);
    // Nothing among its recipients: the provider counts them all within its second.
    expect(firstFreeInstant([wide], 50, 10, 2, { stepRate: 1_000 })).toBe(1_003);
    expect(firstFreeInstant([wide], 50, 500)).toBe(1_003);
  });
});
