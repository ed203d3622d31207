import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  addSplit,
  addWithin,
  readShards,
  segmentEnds,
  sumOf,
  type Counted,
} from '@mailstack/core/table/bounded-counter';
import { keys } from '@mailstack/core/table/keys';
import { testDeps } from '../support/local.ts';

const DAY = '2026-11-25';
// A daily plan of 10 a day: warning at 8, reached at 10, sends until 15, the first park 16, the backlog's end 45.
const STOPS = [8, 10, 15, 16];
const MAX = 45;
const PASSING = 15;

describe('a usage counter over shards under concurrent sends', () => {
  it('admits exactly the limit, sends exactly up to the passing line, and crosses each line in one rebalance', async () => {
    // Prepare: a team of its own, and more single sends than the limit, all at once.
    const deps = testDeps();
    const teamId = randomUUID();
    const ends = segmentEnds(STOPS, MAX);
    const keyOf = (shard: number) => keys.usage.day(teamId, DAY, shard);
    const attempts = MAX + 15;

    // Act
    const out: (Counted | undefined)[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async (_, worker) => {
        for (let i = worker; i < attempts; i += 8)
          out.push(await addWithin(deps, { keyOf, shards: keys.usage.shards, shard: i % keys.usage.shards }, 1, ends));
      }),
    );

    // Assess: the limit exactly, and the refusals only past it.
    const admitted = out.filter((c): c is Counted => c !== undefined);
    expect(admitted).toHaveLength(MAX);
    expect(sumOf(await readShards(deps, { keyOf, shards: keys.usage.shards }, true))).toBe(MAX);
    // Sent: the units numbered up to the passing line (a rebalance's number, or its segment's end).
    const sent = admitted.filter((c) => (c.after !== undefined ? c.after <= PASSING : c.segmentEnd <= PASSING));
    expect(sent).toHaveLength(PASSING);
    // Every line crossed by exactly one count, which a rebalance numbered.
    for (const line of STOPS) {
      const crossing = admitted.filter((c) => c.before !== undefined && c.before < line && c.after! >= line);
      expect(crossing, `line ${line}`).toHaveLength(1);
    }
    // Numbered units are distinct.
    const numbered = admitted.filter((c) => c.after !== undefined).map((c) => c.after);
    expect(new Set(numbered).size).toBe(numbered.length);
  }, 60_000);

  it('counts a batch whole or not at all, and a forced count past the limit', async () => {
    const deps = testDeps();
    const teamId = randomUUID();
    const ends = segmentEnds([8], 10);
    const shards = { keyOf: (shard: number) => keys.usage.month(teamId, '2026-11', shard), shards: keys.usage.shards };

    expect(await addWithin(deps, { ...shards, shard: 0 }, 7, ends)).toMatchObject({ before: 0, after: 7 });
    // 4 more would pass 10: refused whole, nothing counted.
    expect(await addWithin(deps, { ...shards, shard: 1 }, 4, ends)).toBeUndefined();
    expect(sumOf(await readShards(deps, shards, true))).toBe(7);
    // 3 fit exactly, crossing 8 and reaching the limit.
    expect(await addWithin(deps, { ...shards, shard: 2 }, 3, ends)).toMatchObject({ before: 7, after: 10 });
    expect(await addWithin(deps, { ...shards, shard: 3 }, 1, ends)).toBeUndefined();
    // A forced count (broadcast sends already placed) goes past it.
    expect(await addWithin(deps, { ...shards, shard: 4 }, 5, ends, true)).toMatchObject({ before: 10, after: 15 });
    expect(sumOf(await readShards(deps, shards, true))).toBe(15);
  }, 30_000);

  it('holds a ceiling split over shards exactly: every part is taken before a refusal, none past it', async () => {
    // Prepare: a ceiling of 10 over 3 shards (parts 4, 3, 3), and 16 adds at once, all starting on shard 0.
    const deps = testDeps();
    const id = randomUUID();
    const keyOf = (shard: number) => keys.rate.window(id, 1, shard);

    // Act
    const out = await Promise.all(
      Array.from({ length: 16 }, () =>
        addSplit(deps, keyOf, 3, 0, { add: { team_total: 1 }, ceilings: { team_total: 10 }, expiresAt: 2 }),
      ),
    );

    // Assess
    expect(out.filter((o) => o !== undefined)).toHaveLength(10);
    const rows = await readShards(deps, { keyOf, shards: 3 }, true);
    expect(rows.map((r) => r.team_total).sort()).toEqual([3, 3, 4]);
  }, 30_000);
});
