import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { TableStore } from '../../ports/table-store.ts';
import type { Clock } from '../../ports/clock.ts';
import { TABLE } from '../../table/definition.ts';
import {
  billConditionCheck,
  billGet,
  billQuery,
  billWrites,
  indexPartition,
  type ItemWrite,
  type PartitionUnits,
} from '../../table/billing.ts';
import { countedAs } from './counters.ts';

type Row = Record<string, any>;
type Key = { pk: string; sk: string };

/** What one partition took: units, requests, and the functions that made them. */
export interface PartitionLoad {
  read: number;
  write: number;
  requests: number;
  readonly by: Set<string>;
}

/**
 * The units each partition of the table and its indexes took, as AWS bills them (table/billing.ts):
 * over a whole run (`partitions`) and in the current second (what the throttling store holds
 * against DynamoDB's per-partition limits).
 */
export class TableLoad {
  readonly partitions = new Map<string, PartitionLoad>();
  private readonly seconds = new Map<string, { second: number; read: number; write: number }>();

  record(units: readonly PartitionUnits[], now: number): void {
    const by = countedAs.getStore() ?? 'the bench';
    const second = Math.floor(now / 1000);
    for (const u of units) {
      const total = this.partitions.get(u.partition) ?? { read: 0, write: 0, requests: 0, by: new Set<string>() };
      total.read += u.read;
      total.write += u.write;
      total.requests += 1;
      total.by.add(by);
      this.partitions.set(u.partition, total);
      let window = this.seconds.get(u.partition);
      if (!window || window.second !== second) this.seconds.set(u.partition, (window = { second, read: 0, write: 0 }));
      window.read += u.read;
      window.write += u.write;
    }
  }

  /** The units a partition took in the second of `now`. */
  inSecond(partition: string, now: number): { read: number; write: number } {
    const window = this.seconds.get(partition);
    return window && window.second === Math.floor(now / 1000) ? window : { read: 0, write: 0 };
  }

  /** Forgets the totals (a new phase of a run); the current second stays. */
  reset(): void {
    this.partitions.clear();
  }
}

const keyOf = (row: Row): Key => ({ pk: String(row.pk), sk: String(row.sk) });

/** The names and values of an expression that `used` refers to (a query asked again without its filter and projection). */
const onlyUsed = (used: string, names: Row | undefined, values: Row | undefined) => {
  const pick = (map: Row | undefined) => {
    const kept = Object.fromEntries(
      Object.entries(map ?? {}).filter(([alias]) => new RegExp(`${alias}\\b`).test(used)),
    );
    return Object.keys(kept).length ? kept : undefined;
  };
  return { ExpressionAttributeNames: pick(names), ExpressionAttributeValues: pick(values) };
};

/** The partition a query reads: its key condition's partition key value, on the table or its index. */
const queryPartition = (input: QueryCommandInput): string => {
  const match = /^\s*(#\w+)\s*=\s*(:\w+)/.exec(input.KeyConditionExpression ?? '');
  const pk = String(match ? input.ExpressionAttributeValues?.[match[2]!] : '');
  return input.IndexName ? indexPartition(input.IndexName, pk) : pk;
};

/**
 * A table store that records, for every request it passes on, the partitions it touched and the
 * units AWS would bill for it, into `load`. The items as they stood before a write, after an
 * update inside a transaction, and those a query evaluated past its filter or projection are read
 * through `peek` (a store that is not counted), since a write is billed at the larger of its
 * images and a query at every item it evaluated. For the bench and tests: it doubles the reads.
 */
export const meteredTableStore = (store: TableStore, peek: TableStore, load: TableLoad, clock: Clock): TableStore => {
  const table = (input: { TableName?: string | undefined }) => input.TableName ?? '';
  const image = async (tableName: string, key: Key | undefined): Promise<Row | undefined> =>
    key ? (await peek.get({ TableName: tableName, Key: key, ConsistentRead: true })).Item : undefined;
  const note = (units: PartitionUnits[]) => load.record(units, clock.now());
  /** Runs a single-item write, billing it from its images; a refused condition bills the item as it stood. */
  const written = async <T>(
    tableName: string,
    key: Key,
    write: () => Promise<T>,
    after: (out: T) => Promise<Row | undefined> | Row | undefined,
  ): Promise<T> => {
    const before = await image(tableName, key);
    try {
      const out = await write();
      note(billWrites([{ pk: key.pk, before, after: await after(out) }]));
      return out;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) note(billWrites([{ pk: key.pk, before, after: before }]));
      throw error;
    }
  };
  return {
    get: async (input) => {
      const out = await store.get(input);
      const item = input.ProjectionExpression ? await image(table(input), input.Key as Key) : out.Item;
      note([billGet(String(input.Key?.pk), item, input.ConsistentRead === true)]);
      return out;
    },
    put: (input) =>
      written(
        table(input),
        keyOf(input.Item ?? {}),
        () => store.put(input),
        () => input.Item,
      ),
    update: (input) =>
      written(
        table(input),
        input.Key as Key,
        () => store.update(input),
        (out) => (input.ReturnValues === 'ALL_NEW' ? out.Attributes : image(table(input), input.Key as Key)),
      ),
    delete: (input) =>
      written(
        table(input),
        input.Key as Key,
        () => store.delete(input),
        () => undefined,
      ),
    transactWrite: async (input) => {
      const items = (input.TransactItems ?? []).map((t) => {
        if (t.Put) return { kind: 'put' as const, table: table(t.Put), key: keyOf(t.Put.Item ?? {}), item: t.Put.Item };
        if (t.Update) return { kind: 'update' as const, table: table(t.Update), key: t.Update.Key as Key };
        if (t.Delete) return { kind: 'delete' as const, table: table(t.Delete), key: t.Delete.Key as Key };
        return { kind: 'check' as const, table: table(t.ConditionCheck!), key: t.ConditionCheck!.Key as Key };
      });
      const befores = await Promise.all(items.map((i) => image(i.table, i.key)));
      const bill = (afters: (Row | undefined)[]) =>
        note([
          ...billWrites(
            items.flatMap((i, n): ItemWrite[] =>
              i.kind === 'check' ? [] : [{ pk: i.key.pk, before: befores[n], after: afters[n] }],
            ),
            { transactional: true },
          ),
          ...items.flatMap((i, n) => (i.kind === 'check' ? [billConditionCheck(i.key.pk, befores[n])] : [])),
        ]);
      try {
        const out = await store.transactWrite(input);
        bill(
          await Promise.all(
            items.map((i, n) =>
              i.kind === 'put'
                ? i.item
                : i.kind === 'update'
                  ? image(i.table, i.key)
                  : i.kind === 'check'
                    ? befores[n]
                    : undefined,
            ),
          ),
        );
        return out;
      } catch (error) {
        // A canceled transaction is billed as if each item were written as it stood.
        if (error instanceof TransactionCanceledException) bill(befores);
        throw error;
      }
    },
    query: async (input) => {
      const out = await store.query(input);
      const plain = !input.FilterExpression && !input.ProjectionExpression && !input.Select;
      const evaluated = plain
        ? (out.Items ?? [])
        : ((
            await peek.query({
              TableName: input.TableName,
              IndexName: input.IndexName,
              KeyConditionExpression: input.KeyConditionExpression,
              ...onlyUsed(
                input.KeyConditionExpression ?? '',
                input.ExpressionAttributeNames,
                input.ExpressionAttributeValues,
              ),
              ...(input.Limit ? { Limit: input.Limit } : {}),
              ...(input.ScanIndexForward === false ? { ScanIndexForward: false } : {}),
              ...(input.ConsistentRead ? { ConsistentRead: true } : {}),
              ...(input.ExclusiveStartKey ? { ExclusiveStartKey: input.ExclusiveStartKey } : {}),
            })
          ).Items ?? []);
      note([billQuery(queryPartition(input), evaluated, input.ConsistentRead === true)]);
      return out;
    },
    batchGet: async (input) => {
      const out = await store.batchGet(input);
      for (const [tableName, request] of Object.entries(input.RequestItems ?? {})) {
        const found = new Map((out.Responses?.[tableName] ?? []).map((i) => [`${i.pk}\u0000${i.sk}`, i]));
        const unprocessed = new Set(
          (out.UnprocessedKeys?.[tableName]?.Keys ?? []).map((k) => `${String(k.pk)}\u0000${String(k.sk)}`),
        );
        note(
          (request.Keys ?? [])
            .filter((k) => !unprocessed.has(`${String(k.pk)}\u0000${String(k.sk)}`))
            .map((k) =>
              billGet(String(k.pk), found.get(`${String(k.pk)}\u0000${String(k.sk)}`), request.ConsistentRead === true),
            ),
        );
      }
      return out;
    },
    batchWrite: async (input) => {
      const requests = Object.entries(input.RequestItems ?? {}).flatMap(([tableName, list]) =>
        list.map((r) => ({
          tableName,
          key: keyOf(r.PutRequest?.Item ?? r.DeleteRequest?.Key ?? {}),
          item: r.PutRequest?.Item,
        })),
      );
      const befores = await Promise.all(requests.map((r) => image(r.tableName, r.key)));
      const out = await store.batchWrite(input);
      const unprocessed = new Set(
        Object.values(out.UnprocessedItems ?? {})
          .flat()
          .map((r) => {
            const k = keyOf(r.PutRequest?.Item ?? r.DeleteRequest?.Key ?? {});
            return `${k.pk}\u0000${k.sk}`;
          }),
      );
      note(
        billWrites(
          requests.flatMap((r, n) =>
            unprocessed.has(`${r.key.pk}\u0000${r.key.sk}`)
              ? []
              : [{ pk: r.key.pk, before: befores[n], after: r.item }],
          ),
        ),
      );
      return out;
    },
  };
};

/** The partitions a request will touch, known from its input alone (for the throttling store): table keys, and the index keys of a put. */
export const partitionsOf = (
  method: keyof TableStore,
  input: any,
): { partition: string; kind: 'read' | 'write'; key?: Key }[] => {
  const indexKeys = (item: Row | undefined) =>
    TABLE.indexes.flatMap((i) =>
      typeof item?.[i.partitionKey] === 'string' ? [indexPartition(i.name, item[i.partitionKey])] : [],
    );
  switch (method) {
    case 'get':
      return [{ partition: String(input.Key?.pk), kind: 'read' }];
    case 'query':
      return [{ partition: queryPartition(input), kind: 'read' }];
    case 'put':
      return [input.Item?.pk, ...indexKeys(input.Item)].map((p) => ({ partition: String(p), kind: 'write' as const }));
    case 'update':
    case 'delete':
      return [{ partition: String(input.Key?.pk), kind: 'write' }];
    case 'transactWrite':
      return (input.TransactItems ?? []).map((t: any) => {
        const key = (t.Put?.Item ?? t.Update?.Key ?? t.Delete?.Key ?? t.ConditionCheck?.Key) as Key;
        return { partition: String(key?.pk), kind: t.ConditionCheck ? 'read' : 'write', key };
      });
    case 'batchGet':
      return Object.values(input.RequestItems ?? {}).flatMap((r: any) =>
        (r.Keys ?? []).map((key: Key) => ({ partition: String(key.pk), kind: 'read' as const, key })),
      );
    case 'batchWrite':
      return Object.values(input.RequestItems ?? {}).flatMap((list: any) =>
        list.map((r: any) => {
          const key = (r.PutRequest?.Item ?? r.DeleteRequest?.Key) as Key;
          return { partition: String(key?.pk), kind: 'write' as const, key };
        }),
      );
  }
};
