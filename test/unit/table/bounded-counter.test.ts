import { describe, expect, it } from 'vitest';
import { roomsAfter, segmentEnds, spread, sumOf } from '@mailstack/core/table/bounded-counter';
import { keys, shardOf } from '@mailstack/core/table/keys';
import { sumDays } from '@mailstack/core/domain/deliverability/guardrail';
import { broadcastSecondShards } from '@mailstack/core/table/broadcast-second';

describe('a bounded counter over shards', () => {
  it('cuts its units at the distinct stops under the limit, and the limit', () => {
    // A free plan's day: warning 80, reached 100, passing 150, paused 151, backlog's end 450.
    expect(segmentEnds([80, 100, 150, 151], 450)).toEqual([80, 100, 150, 151, 450]);
    // Stops past the limit, at zero or repeated count once or not at all.
    expect(segmentEnds([0, 8, 8, 10, 12], 10)).toEqual([8, 10]);
  });

  it('spreads units over the shards, the first ones taking one more, the sum exact', () => {
    expect(spread(10, 4)).toEqual([3, 3, 2, 2]);
    expect(spread(3, 8)).toEqual([1, 1, 1, 0, 0, 0, 0, 0]);
    for (const units of [0, 1, 7, 8, 9, 1_000_003]) expect(spread(units, 8).reduce((a, b) => a + b, 0)).toBe(units);
  });

  it("leaves a segment's last unit out of the rooms, so the count that crosses a stop is a rebalance", () => {
    const ends = [80, 100, 150, 151, 450];
    // In the first segment at 0: 79 units of room, 80 (the warning line) kept back.
    expect(roomsAfter(0, ends, 8)).toEqual({ rooms: spread(79, 8), end: 80 });
    // One short of a stop: no room, the next unit goes by a rebalance.
    expect(roomsAfter(79, ends, 8)).toEqual({ rooms: spread(0, 8), end: 80 });
    // At a stop: the next segment's room.
    expect(roomsAfter(80, ends, 8)).toEqual({ rooms: spread(19, 8), end: 100 });
    // The one-unit segment (the first parked email): no room at all.
    expect(roomsAfter(150, ends, 8)).toEqual({ rooms: spread(0, 8), end: 151 });
    // At or past the limit (a forced count): no room, the limit as the end.
    expect(roomsAfter(450, ends, 8)).toEqual({ rooms: spread(0, 8), end: 450 });
    expect(roomsAfter(500, ends, 8)).toEqual({ rooms: spread(0, 8), end: 450 });
  });

  it('never lets the rooms carry the count to a stop, whatever the shards take', () => {
    const ends = [80, 100, 150, 151, 450];
    for (let total = 0; total < 450; total++) {
      const { rooms, end } = roomsAfter(total, ends, 8);
      expect(total + rooms.reduce((a, b) => a + b, 0)).toBe(Math.max(total, end - 1));
      expect(ends.some((e) => e > total && e < end)).toBe(false);
    }
  });

  it('sums the shards read, a missing attribute counting 0', () => {
    expect(sumOf([{ emails_sent: 3 }, {}, { emails_sent: 4, automation_runs: 2 }])).toBe(7);
    expect(sumOf([{ emails_sent: 3 }, { automation_runs: 2 }], 'automation_runs')).toBe(2);
  });
});

describe('counter shards picked from an id', () => {
  const ids = Array.from(
    { length: 256 },
    (_, n) => `01a203f1-b5a8-722d-8462-e405b6a2${n.toString(16).padStart(4, '0')}`,
  );
  it.each([
    ['usage', keys.usage.shards],
    ['deliverability', keys.deliverability.shards],
    ['metrics', keys.metrics.monthShards],
  ])('reach every %s shard, evenly for sequential ids', (_kind, shards) => {
    const counts = spread(0, shards);
    for (const id of ids) counts[shardOf(id, shards)]! += 1;
    expect(counts.every((c) => c === 256 / shards)).toBe(true);
  });

  it("sums a day's deliverability shards into the day's counts", () => {
    expect(sumDays([{ sent: 5, bounced: 1 }, { sent: 7, complained: 2 }, {}])).toEqual({
      sent: 12,
      bounced: 1,
      complained: 2,
    });
  });
});

describe("a region's broadcast second", () => {
  it.each([
    [1, 1],
    [14, 1],
    [250, 1],
    [251, 2],
    [2_000, 8],
    [1_000_000, 16],
  ])('splits a share of %i sends over %i shards, the parts summing to the share exactly', (ceiling, shards) => {
    expect(broadcastSecondShards(ceiling)).toBe(shards);
    const parts = spread(ceiling, shards);
    expect(parts.reduce((a, b) => a + b, 0)).toBe(ceiling);
    // At 1 WCU a send, no part takes more than a quarter of a partition's 1,000 WCU/s while the shards suffice.
    if (ceiling <= 16 * 250) expect(Math.max(...parts)).toBeLessThanOrEqual(250);
  });
});
