import { describe, expect, it } from 'vitest';
import type { Deps } from '@mailstack/core/runtime/deps';
import { cachedItem, newItemCache } from '@mailstack/core/table/item-cache';
import { putItem, updateItem } from '@mailstack/core/table/ops';

/** A table of one process's view: reads and writes counted, rows in a map. */
const fakeTable = (ttlMs: number) => {
  const rows = new Map<string, Record<string, unknown>>();
  let now = 1_000_000;
  const stats = { reads: 0 };
  const id = (k: { pk: string; sk: string }) => `${k.pk}|${k.sk}`;
  const deps = {
    table: 't',
    clock: { now: () => now },
    itemCache: newItemCache(ttlMs),
    tableStore: {
      get: async (input: { Key: { pk: string; sk: string } }) => {
        stats.reads++;
        return { Item: rows.get(id(input.Key)) };
      },
      put: async () => ({}),
      update: async () => ({}),
      delete: async () => ({}),
    },
  } as unknown as Deps;
  return {
    deps,
    rows,
    stats,
    advance: (ms: number) => {
      now += ms;
    },
    key: { pk: 'APIKEY#h', sk: 'APIKEY' },
    id,
  };
};

describe('the lookup cache (keys, teams, sending domains)', () => {
  it('serves a found row from the copy until the staleness has passed, then reads again', async () => {
    const t = fakeTable(5_000);
    t.rows.set(t.id(t.key), { revoked: false });
    await cachedItem(t.deps, t.key);
    await cachedItem(t.deps, t.key);
    expect(t.stats.reads).toBe(1);
    // Changed by another process: this one still answers from its copy, until the staleness is over.
    t.rows.set(t.id(t.key), { revoked: true });
    t.advance(4_999);
    expect(await cachedItem(t.deps, t.key)).toEqual({ revoked: false });
    t.advance(1);
    expect(await cachedItem(t.deps, t.key)).toEqual({ revoked: true });
    expect(t.stats.reads).toBe(2);
  });

  it('drops the copy when this process writes the row, so its own change takes effect at once', async () => {
    const t = fakeTable(5_000);
    t.rows.set(t.id(t.key), { revoked: false });
    await cachedItem(t.deps, t.key);
    await updateItem(t.deps, t.key, { set: { revoked: true } });
    await cachedItem(t.deps, t.key);
    expect(t.stats.reads).toBe(2);
    await putItem(t.deps, { ...t.key, revoked: true });
    await cachedItem(t.deps, t.key);
    expect(t.stats.reads).toBe(3);
  });

  it('never keeps a row it did not find, so a key or domain made elsewhere works at once', async () => {
    const t = fakeTable(5_000);
    expect(await cachedItem(t.deps, t.key)).toBeUndefined();
    t.rows.set(t.id(t.key), { revoked: false });
    expect(await cachedItem(t.deps, t.key)).toEqual({ revoked: false });
    expect(t.stats.reads).toBe(2);
  });

  it('shares one read between concurrent misses of a row', async () => {
    const t = fakeTable(5_000);
    t.rows.set(t.id(t.key), { revoked: false });
    await Promise.all([cachedItem(t.deps, t.key), cachedItem(t.deps, t.key), cachedItem(t.deps, t.key)]);
    expect(t.stats.reads).toBe(1);
  });

  it('reads every time when the staleness is 0', async () => {
    const t = fakeTable(0);
    t.rows.set(t.id(t.key), { revoked: false });
    await cachedItem(t.deps, t.key);
    await cachedItem(t.deps, t.key);
    expect(t.stats.reads).toBe(2);
  });
});
