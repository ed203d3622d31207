import { describe, expect, it } from 'vitest';
import { keys, shardOf } from '@mailstack/core/table/keys';
import { keyPattern } from '@mailstack/core/table/key-pattern';
import { mergeShardPages } from '@mailstack/core/table/query-page';
import { rateShares, tryOrder } from '@mailstack/core/table/webhook-limits';

describe('webhook delivery log shards', () => {
  it('puts a delivery and its attempts in the shard its event id names, the same every time', () => {
    const eventId = '0193a2b4-1c2d-7e3f-8a9b-0c1d2e3f4a5b';
    const shard = shardOf(eventId, keys.webhook.logShards);
    const delivery = keys.webhook.delivery('t1', 'w1', eventId);
    expect(delivery.pk).toBe(keys.webhook.logPartition('t1', 'w1', shard));
    expect(keys.webhook.attempt('t1', 'w1', eventId, 'a1').pk).toBe(delivery.pk);
    expect(keyPattern(delivery.pk)).toBe('TEAM#<t>#WEBHOOK#<w>#SHARD#<shard>');
  });

  it('spreads event ids over every shard', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 4096; i++)
      seen.add(shardOf(`0193a2b4-1c2d-7e3f-8a9b-0c1d2e3f${i.toString(16).padStart(4, '0')}`, keys.webhook.logShards));
    expect(seen.size).toBe(keys.webhook.logShards);
  });

  it('names the in-flight places and the shards of a second as patterns the hot-key map tells apart', () => {
    expect(keyPattern(keys.webhook.inFlight('0193a2b4-1c2d-7e3f-8a9b-0c1d2e3f4a5b', 3).pk)).toBe(
      'WHFLIGHT#<w>#SLOT#<slot>',
    );
    expect(keyPattern(keys.webhook.second('0193a2b4-1c2d-7e3f-8a9b-0c1d2e3f4a5b', 1796600000, 2).pk)).toBe(
      'WHRATE#<w>#<second>#SHARD#<shard>',
    );
  });
});

describe('per-second shares of an endpoint rate', () => {
  it.each([
    [50, 4, [13, 13, 12, 12]],
    [4, 4, [1, 1, 1, 1]],
    [3, 4, [1, 1, 1, 0]],
    [1, 4, [1, 0, 0, 0]],
    [8, 4, [2, 2, 2, 2]],
  ])('rate %i over %i shards: %j, summing to the rate', (rate, shards, expected) => {
    expect(rateShares(rate, shards)).toEqual(expected);
    expect(rateShares(rate, shards).reduce((a, b) => a + b, 0)).toBe(rate);
  });

  it('tries every place once, from the one given, wrapping around', () => {
    expect(tryOrder(5, 8)).toEqual([5, 6, 7, 0, 1, 2, 3, 4]);
    expect(tryOrder(0, 4)).toEqual([0, 1, 2, 3]);
  });
});

describe('merging pages of shards', () => {
  const ids = (p: { items: { id: string }[] }) => p.items.map((i) => i.id);
  const byId = (i: { id: string }) => i.id;
  // One list of ids 01..12, newest (highest) first, spread over three shards.
  const all = Array.from({ length: 12 }, (_, i) => String(12 - i).padStart(2, '0'));
  const shard = (s: number, keep: (id: string) => boolean, limit: number) => {
    const mine = all.filter((id) => Number(id) % 3 === s && keep(id));
    return { items: mine.slice(0, limit).map((id) => ({ id })), hasMore: mine.length > limit };
  };
  const newer = (s: number, cursor: string, limit: number) => {
    const mine = all.filter((id) => Number(id) % 3 === s && id > cursor).reverse();
    return {
      items: mine
        .slice(0, limit)
        .reverse()
        .map((id) => ({ id })),
      hasMore: mine.length > limit,
    };
  };

  it('gives the newest page first, newest first, and says more follow', () => {
    const page = mergeShardPages(
      [0, 1, 2].map((s) => shard(s, () => true, 4)),
      { limit: 4 },
      byId,
    );
    expect(ids(page)).toEqual(['12', '11', '10', '09']);
    expect(page.hasMore).toBe(true);
  });

  it('after a cursor: the next older items across shards; the last page says no more', () => {
    const next = mergeShardPages(
      [0, 1, 2].map((s) => shard(s, (id) => id < '09', 4)),
      { limit: 4, after: '09' },
      byId,
    );
    expect(ids(next)).toEqual(['08', '07', '06', '05']);
    const last = mergeShardPages(
      [0, 1, 2].map((s) => shard(s, (id) => id < '05', 4)),
      { limit: 4, after: '05' },
      byId,
    );
    expect(ids(last)).toEqual(['04', '03', '02', '01']);
    expect(last.hasMore).toBe(false);
  });

  it('before a cursor: the items just newer than it, still newest first', () => {
    const page = mergeShardPages(
      [0, 1, 2].map((s) => newer(s, '04', 3)),
      { limit: 3, before: '04' },
      byId,
    );
    expect(ids(page)).toEqual(['07', '06', '05']);
    expect(page.hasMore).toBe(true);
  });
});
