import { describe, expect, it } from 'vitest';
import type { TableStore } from '@mailstack/core/ports/table-store';
import type { Deps } from '@mailstack/core/runtime/deps';
import { meteredTableStore, TableLoad } from '@mailstack/core/adapters/aws/metered-table-store';
import { sdkRetryingTableStore, throttledTableStore } from '@mailstack/core/adapters/aws/throttled-table-store';
import { batchWriteItems, getItem, putItem, transact } from '@mailstack/core/table/ops';
import { newItemCache } from '@mailstack/core/table/item-cache';
import { keyPattern } from '@mailstack/core/table/key-pattern';

type Row = Record<string, any>;

/** A table in memory: puts, gets, transactions of puts and batch puts (what these tests ask of it). */
const memoryStore = () => {
  const rows = new Map<string, Row>();
  const id = (k: Row) => `${k.pk}\u0000${k.sk}`;
  const store = {
    get: async (input: Row) => ({ Item: rows.get(id(input.Key)) }),
    put: async (input: Row) => {
      rows.set(id(input.Item), input.Item);
      return {};
    },
    transactWrite: async (input: Row) => {
      for (const t of input.TransactItems) if (t.Put) rows.set(id(t.Put.Item), t.Put.Item);
      return {};
    },
    batchWrite: async (input: Row) => {
      for (const list of Object.values(input.RequestItems) as Row[][])
        for (const r of list) rows.set(id(r.PutRequest.Item), r.PutRequest.Item);
      return { UnprocessedItems: {} };
    },
  } as unknown as TableStore;
  return { store, rows };
};

/** A virtual clock, moved by the SDK-like retries' waits. */
const setup = (limits: { writeUnitsPerSecond: number; readUnitsPerSecond: number }) => {
  let now = 5_000_000;
  const clock = { now: () => now };
  const { store, rows } = memoryStore();
  const load = new TableLoad();
  const waits: number[] = [];
  const throttled = throttledTableStore(meteredTableStore(store, store, load, clock), load, clock, limits);
  const retrying = sdkRetryingTableStore(throttled, {
    random: () => 1,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
  });
  const deps = (tableStore: TableStore) =>
    ({ tableStore, table: 't', itemCache: newItemCache(0), clock }) as unknown as Deps;
  return { clock, rows, load, throttled, retrying, waits, deps, advance: (ms: number) => (now += ms) };
};

describe('a table store that throttles a partition past its units in the second, as DynamoDB does', () => {
  it('refuses a write past the partition\u2019s write units with the SDK\u2019s throttling error, and admits it the next second', async () => {
    // Prepare: two write units a second for each partition.
    const t = setup({ writeUnitsPerSecond: 2, readUnitsPerSecond: 6 });
    const plain = t.deps(t.throttled);
    await putItem(plain, { pk: 'PACE#us-east-1', sk: 'A' });
    await putItem(plain, { pk: 'PACE#us-east-1', sk: 'B' });

    // Act
    const refused = await putItem(plain, { pk: 'PACE#us-east-1', sk: 'C' }).catch((e: Error) => e);
    const elsewhere = await putItem(plain, { pk: 'PACE#eu-west-1', sk: 'C' });
    t.advance(1_000);
    const nextSecond = await putItem(plain, { pk: 'PACE#us-east-1', sk: 'C' });

    // Assess
    expect(refused).toMatchObject({ name: 'ProvisionedThroughputExceededException' });
    expect([elsewhere, nextSecond]).toEqual([true, true]);
    expect(t.throttled.stats).toMatchObject({ requests: 5, refused: 1 });
    expect(t.throttled.stats.byPattern.get('PACE#<region>')).toEqual({ requests: 5, refused: 1 });
  });

  it('is retried beneath the code as the SDK retries it, with a backoff, until the partition has room', async () => {
    // Prepare
    const t = setup({ writeUnitsPerSecond: 2, readUnitsPerSecond: 6 });
    const deps = t.deps(t.retrying);
    await putItem(deps, { pk: 'TEAM#1#USAGE#2026-12-07', sk: 'A' });
    await putItem(deps, { pk: 'TEAM#1#USAGE#2026-12-07', sk: 'B' });

    // Act: the third write of the second is refused, waited on and sent again.
    const ok = await putItem(deps, { pk: 'TEAM#1#USAGE#2026-12-07', sk: 'C' });

    // Assess: backoffs of up to 1 s, 2 s... (the SDK's throttling base) until the next second.
    expect(ok).toBe(true);
    expect(t.waits).toEqual([1_000]);
    expect(t.throttled.stats.refused).toBe(1);
    expect(t.rows.has('TEAM#1#USAGE#2026-12-07\u0000C')).toBe(true);
    expect((await getItem(deps, { pk: 'TEAM#1#USAGE#2026-12-07', sk: 'C' }))?.sk).toBe('C');
  });

  it('cancels a transaction with ThrottlingError, which the table operations retry', async () => {
    // Prepare
    const t = setup({ writeUnitsPerSecond: 2, readUnitsPerSecond: 6 });
    const deps = t.deps(t.retrying);
    await transact(deps, [{ put: { pk: 'HOT', sk: 'A' } }]);

    // Act: the item of the first transaction was billed two units (transactional), so the partition is full.
    const pending = transact(deps, [{ put: { pk: 'HOT', sk: 'B' } }, { put: { pk: 'COLD', sk: 'B' } }]);
    t.advance(1_000);
    const out = await pending;

    // Assess
    expect(out).toEqual({ ok: true });
    expect(t.throttled.stats.refused).toBeGreaterThanOrEqual(1);
    expect(t.rows.has('HOT\u0000B')).toBe(true);
  });

  it('hands throttled items of a batch back as unprocessed, which the table operations send again', async () => {
    // Prepare
    const t = setup({ writeUnitsPerSecond: 1, readUnitsPerSecond: 3 });
    const deps = t.deps(t.retrying);
    await putItem(deps, { pk: 'HOT', sk: 'A' });

    // Act
    const pending = batchWriteItems(deps, {
      put: [
        { pk: 'HOT', sk: 'B' },
        { pk: 'COLD', sk: 'B' },
      ],
    });
    t.advance(1_000);
    await pending;

    // Assess
    expect(t.throttled.stats.refused).toBeGreaterThanOrEqual(1);
    expect([t.rows.has('HOT\u0000B'), t.rows.has('COLD\u0000B')]).toEqual([true, true]);
  });
});

describe('a metered table store', () => {
  it('bills each request to the partitions it touched as AWS does: a transaction’s item two units per KB, its index in its own partition', async () => {
    // Prepare
    const t = setup({ writeUnitsPerSecond: 1_000, readUnitsPerSecond: 3_000 });
    const deps = t.deps(t.retrying);
    const body = 'x'.repeat(1_500);

    // Act
    await transact(deps, [{ put: { pk: 'TEAM#t1#EMAIL#e1', sk: 'EMAIL', gsi1pk: 'TEAM#t1#EMAILS#0', body } }]);
    await putItem(deps, { pk: 'TEAM#t1#EMAIL#e2', sk: 'EMAIL', body });
    await getItem(deps, { pk: 'TEAM#t1#EMAIL#e2', sk: 'EMAIL' });

    // Assess: 2 KB in a transaction is 4 units, its index 2; alone, 2; a consistent read of it, 1.
    const units = Object.fromEntries([...t.load.partitions].map(([p, l]) => [p, [l.write, l.read]]));
    expect(units).toEqual({
      'TEAM#t1#EMAIL#e1': [4, 0],
      'gsi1:TEAM#t1#EMAILS#0': [2, 0],
      'TEAM#t1#EMAIL#e2': [2, 1],
    });
  });
});

describe('key patterns', () => {
  it.each([
    ['TEAM#0193a2b4-1c2d-7e3f-8a9b-0c1d2e3f4a5b#USAGE#2026-12-07', 'TEAM#<t>#USAGE#<day>'],
    ['TEAM#0193a2b4-1c2d-7e3f-8a9b-0c1d2e3f4a5b#USAGE#2026-12', 'TEAM#<t>#USAGE#<month>'],
    ['PACE#us-east-1#CALLS#14', 'PACE#<region>#CALLS#<rate>'],
    ['TEAM#t1#EMAIL#0193a2b4-1c2d-7e3f-8a9b-0c1d2e3f4a5b', 'TEAM#<t>#EMAIL#<id>'],
    ['gsi1:TEAM#t1#EMAILS#3', 'gsi1:TEAM#<t>#EMAILS#<shard>'],
    ['PACE#us-east-1#BCAST#1796600000', 'PACE#<region>#BCAST#<second>'],
    ['WHRATE#0193a2b4-1c2d-7e3f-8a9b-0c1d2e3f4a5b#1796600000', 'WHRATE#<w>#<second>'],
  ])('%s is %s', (key, pattern) => {
    expect(keyPattern(key)).toBe(pattern);
  });
});
