import type { TableStore } from '../../ports/table-store.ts';
import type { Clock } from '../../ports/clock.ts';

type Row = Record<string, unknown> | undefined;

/**
 * A table store whose reads through a global secondary index lag its writes, as on AWS, where
 * every GSI read is eventually consistent (a write reaches the indexes after it is acknowledged;
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.ReadConsistency.html),
 * where DynamoDB Local's are immediate. An item written (put, updated, in a transaction or a
 * batch) through this store in the last `lagMs` is left out of every index query's answer, so
 * code that reads its own write through an index is found by the tests. A test switch of the
 * local host (INDEX_LAG_MS); it sees only the writes of its own process.
 */
export const laggingIndexStore = (store: TableStore, lagMs: number, clock: Clock): TableStore => {
  const written = new Map<string, number>();
  const id = (key: Row) => (key ? `${String(key.pk)}\u0000${String(key.sk)}` : '');
  const wrote = (key: Row) => {
    if (key) written.set(id(key), clock.now());
  };
  const fresh = (item: Row) => {
    const at = written.get(id(item));
    if (at === undefined) return false;
    if (clock.now() - at < lagMs) return true;
    written.delete(id(item));
    return false;
  };
  return {
    ...store,
    put: async (input) => {
      const out = await store.put(input);
      wrote(input.Item);
      return out;
    },
    update: async (input) => {
      const out = await store.update(input);
      wrote(input.Key);
      return out;
    },
    transactWrite: async (input) => {
      const out = await store.transactWrite(input);
      for (const t of input.TransactItems ?? []) wrote(t.Put?.Item ?? t.Update?.Key);
      return out;
    },
    batchWrite: async (input) => {
      const out = await store.batchWrite(input);
      for (const requests of Object.values(input.RequestItems ?? {}))
        for (const r of requests) wrote(r.PutRequest?.Item);
      return out;
    },
    query: async (input) => {
      const out = await store.query(input);
      if (!input.IndexName || !out.Items) return out;
      const items = out.Items.filter((item) => !fresh(item));
      return { ...out, Items: items, Count: items.length };
    },
  };
};
