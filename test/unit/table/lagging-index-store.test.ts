import { describe, expect, it } from 'vitest';
import type { TableStore } from '@mailstack/core/ports/table-store';
import { laggingIndexStore } from '@mailstack/core/adapters/aws/lagging-index-store';

/** A store that answers every query with the items it holds, as an index that shows every write at once. */
const immediate = () => {
  const items: Record<string, unknown>[] = [];
  const store = {
    put: async (input: { Item: Record<string, unknown> }) => {
      items.push(input.Item);
      return {};
    },
    update: async () => ({}),
    transactWrite: async (input: { TransactItems: { Put?: { Item: Record<string, unknown> } }[] }) => {
      for (const t of input.TransactItems) if (t.Put) items.push(t.Put.Item);
      return {};
    },
    batchWrite: async () => ({}),
    query: async () => ({ Items: [...items], Count: items.length }),
  } as unknown as TableStore;
  return store;
};

describe('a table store whose index reads lag its writes (eventually consistent GSIs, as on AWS)', () => {
  it('leaves what was written in the last second out of index queries, and shows it after', async () => {
    // Prepare
    const clock = { now: () => 1_000_000 };
    const store = laggingIndexStore(immediate(), 1_000, clock);
    await store.put({ TableName: 't', Item: { pk: 'a', sk: '1', gsi1pk: 'L' } });
    await store.transactWrite({
      TransactItems: [{ Put: { TableName: 't', Item: { pk: 'b', sk: '1', gsi1pk: 'L' } } }],
    });

    // Act
    const throughIndex = await store.query({ TableName: 't', IndexName: 'gsi1' });
    const onTheTable = await store.query({ TableName: 't' });
    clock.now = () => 1_001_000;
    const later = await store.query({ TableName: 't', IndexName: 'gsi1' });

    // Assess: the table's own reads are consistent; the index catches up.
    expect(throughIndex).toMatchObject({ Items: [], Count: 0 });
    expect(onTheTable.Items).toHaveLength(2);
    expect(later.Items?.map((i) => i.pk)).toEqual(['a', 'b']);
  });

  it('also hides an item updated in the last second (the index may still hold its old version)', async () => {
    const clock = { now: () => 5_000 };
    const inner = immediate();
    await inner.put({ TableName: 't', Item: { pk: 'a', sk: '1' } });
    const store = laggingIndexStore(inner, 1_000, clock);
    expect((await store.query({ TableName: 't', IndexName: 'gsi2' })).Items).toHaveLength(1);
    await store.update({ TableName: 't', Key: { pk: 'a', sk: '1' } });
    expect((await store.query({ TableName: 't', IndexName: 'gsi2' })).Items).toHaveLength(0);
  });
});
