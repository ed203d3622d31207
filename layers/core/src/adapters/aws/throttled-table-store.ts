import { ProvisionedThroughputExceededException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { TableStore } from '../../ports/table-store.ts';
import type { Clock } from '../../ports/clock.ts';
import { partitionsOf, type TableLoad } from './metered-table-store.ts';
import { keyPattern } from '../../table/key-pattern.ts';
import { DYNAMODB_MAX_ATTEMPTS } from './clients.ts';

/**
 * DynamoDB's limits on one partition: 1,000 write units and 3,000 read units a second, whatever
 * the table's capacity mode (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html).
 */
export const PARTITION_LIMITS = { writeUnitsPerSecond: 1_000, readUnitsPerSecond: 3_000 } as const;

/** Requests and refusals of the throttling store, by key pattern. */
export interface ThrottleStats {
  requests: number;
  refused: number;
  readonly byPattern: Map<string, { requests: number; refused: number }>;
}

const message = (partition: string, kind: string, limit: number) =>
  `Throughput exceeds the current capacity of your table or index: the partition ${partition} took ${limit} ${kind} units this second (its limit)`;

/**
 * A table store that refuses a request as DynamoDB does when a partition it touches has taken its
 * units for the current second (`load`, filled by the metered store beneath it): a single-item
 * request with ProvisionedThroughputExceededException (reason TableWriteKeyRangeThroughputExceeded
 * or TableReadKeyRangeThroughputExceeded), a transaction with TransactionCanceledException whose
 * reason is ThrottlingError, a batch by handing the throttled items back as unprocessed. For tests
 * and the bench, with `limits` scaled when the machine runs slower than the rate it stands for.
 */
export const throttledTableStore = (
  store: TableStore,
  load: TableLoad,
  clock: Clock,
  limits: { writeUnitsPerSecond: number; readUnitsPerSecond: number } = PARTITION_LIMITS,
  stats: ThrottleStats = { requests: 0, refused: 0, byPattern: new Map() },
): TableStore & { readonly stats: ThrottleStats } => {
  const full = (p: { partition: string; kind: 'read' | 'write' }) => {
    const used = load.inSecond(p.partition, clock.now());
    return p.kind === 'write' ? used.write >= limits.writeUnitsPerSecond : used.read >= limits.readUnitsPerSecond;
  };
  const count = (partitions: readonly { partition: string }[], refused: boolean) => {
    stats.requests += 1;
    if (refused) stats.refused += 1;
    for (const pattern of new Set(partitions.map((p) => keyPattern(p.partition)))) {
      const s = stats.byPattern.get(pattern) ?? { requests: 0, refused: 0 };
      s.requests += 1;
      if (refused) s.refused += 1;
      stats.byPattern.set(pattern, s);
    }
  };
  const single =
    <M extends 'get' | 'put' | 'update' | 'delete' | 'query'>(method: M) =>
    (input: Parameters<TableStore[M]>[0]): ReturnType<TableStore[M]> => {
      const partitions = partitionsOf(method, input);
      const over = partitions.find(full);
      count(partitions, over !== undefined);
      if (over) {
        const kind = over.kind === 'write' ? 'Write' : 'Read';
        const limit = over.kind === 'write' ? limits.writeUnitsPerSecond : limits.readUnitsPerSecond;
        return Promise.reject(
          new ProvisionedThroughputExceededException({
            message: message(over.partition, over.kind, limit),
            $metadata: { httpStatusCode: 400 },
            ThrottlingReasons: [{ reason: `Table${kind}KeyRangeThroughputExceeded`, resource: input.TableName }],
          }),
        ) as ReturnType<TableStore[M]>;
      }
      return (store[method] as (i: typeof input) => ReturnType<TableStore[M]>)(input);
    };
  return {
    stats,
    get: single('get'),
    put: single('put'),
    update: single('update'),
    delete: single('delete'),
    query: single('query'),
    transactWrite: async (input) => {
      const partitions = partitionsOf('transactWrite', input);
      const refused = partitions.map(full);
      count(partitions, refused.some(Boolean));
      if (refused.some(Boolean))
        throw new TransactionCanceledException({
          message: 'Transaction cancelled, please refer cancellation reasons for specific reasons',
          $metadata: { httpStatusCode: 400 },
          CancellationReasons: refused.map((r, i) =>
            r
              ? { Code: 'ThrottlingError', Message: message(partitions[i]!.partition, partitions[i]!.kind, 0) }
              : { Code: 'None' },
          ),
        });
      return store.transactWrite(input);
    },
    batchGet: async (input) => {
      const keys = partitionsOf('batchGet', input);
      const held = keys.filter(full);
      count(keys, held.length > 0);
      if (held.length === 0) return store.batchGet(input);
      if (held.length === keys.length)
        throw new ProvisionedThroughputExceededException({
          message: message(held[0]!.partition, 'read', limits.readUnitsPerSecond),
          $metadata: { httpStatusCode: 400 },
        });
      const heldKeys = new Set(held.map((k) => k.key));
      const [tableName, request] = Object.entries(input.RequestItems ?? {})[0] as [string, any];
      const out = await store.batchGet({
        RequestItems: { [tableName]: { ...request, Keys: request.Keys.filter((k: any) => !heldKeys.has(k)) } },
      });
      return {
        ...out,
        UnprocessedKeys: {
          [tableName]: { ...request, Keys: [...heldKeys, ...(out.UnprocessedKeys?.[tableName]?.Keys ?? [])] },
        },
      };
    },
    batchWrite: async (input) => {
      const items = partitionsOf('batchWrite', input);
      const held = items.filter(full);
      count(items, held.length > 0);
      if (held.length === 0) return store.batchWrite(input);
      if (held.length === items.length)
        throw new ProvisionedThroughputExceededException({
          message: message(held[0]!.partition, 'write', limits.writeUnitsPerSecond),
          $metadata: { httpStatusCode: 400 },
        });
      const heldKeys = new Set(held.map((k) => k.key));
      const [tableName, list] = Object.entries(input.RequestItems ?? {})[0] as [string, any[]];
      const isHeld = (r: any) => heldKeys.has(r.PutRequest?.Item ?? r.DeleteRequest?.Key);
      const out = await store.batchWrite({ RequestItems: { [tableName]: list.filter((r) => !isHeld(r)) } });
      return {
        ...out,
        UnprocessedItems: {
          [tableName]: [...list.filter(isHeld), ...(out.UnprocessedItems?.[tableName] ?? [])],
        },
      };
    },
  };
};

/** Error names the SDK's retry strategy classes as throttling (those DynamoDB answers). */
const THROTTLING = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded']);

/** The SDK's standard retry strategy, as @smithy/core's util-retry runs it for a throttling error. */
const SDK_RETRY = {
  /** Backoff base of a throttling error and the ceiling of any backoff (ms). */
  throttlingDelayBase: 1_000,
  maxDelay: 20_000,
  /** The client's retry quota: tokens held, and what a throttling retry costs. */
  tokens: 500,
  throttlingCost: 5,
} as const;

/**
 * A table store that retries a request refused for throttling as the AWS SDK's standard retry
 * strategy does beneath every DynamoDB call on AWS (the client made in clients.ts): up to
 * DYNAMODB_MAX_ATTEMPTS attempts, each retry after a random wait of up to 1 s × 2^retry (at most
 * 20 s), while the client's retry quota lasts (500 tokens, 5 a throttling retry, given back on
 * success). Where the refusal comes from a store above the SDK (the throttling store), this puts
 * the SDK's retries back in front of the code. `sleep` is the wait (a test moves a clock in it).
 */
export const sdkRetryingTableStore = (
  store: TableStore,
  options: { maxAttempts?: number; sleep?: (ms: number) => Promise<void>; random?: () => number } = {},
): TableStore => {
  const maxAttempts = options.maxAttempts ?? DYNAMODB_MAX_ATTEMPTS;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const random = options.random ?? Math.random;
  let tokens: number = SDK_RETRY.tokens;
  const retried =
    <I, O>(call: (input: I) => Promise<O>) =>
    async (input: I): Promise<O> => {
      for (let retry = 0; ; retry++) {
        try {
          const out = await call(input);
          tokens = Math.min(SDK_RETRY.tokens, tokens + (retry > 0 ? SDK_RETRY.throttlingCost : 1));
          return out;
        } catch (error) {
          const name = (error as { name?: string }).name ?? '';
          if (!THROTTLING.has(name) || retry + 1 >= maxAttempts || tokens < SDK_RETRY.throttlingCost) throw error;
          tokens -= SDK_RETRY.throttlingCost;
          await sleep(Math.floor(random() * Math.min(SDK_RETRY.throttlingDelayBase * 2 ** retry, SDK_RETRY.maxDelay)));
        }
      }
    };
  return {
    get: retried((i) => store.get(i)),
    put: retried((i) => store.put(i)),
    update: retried((i) => store.update(i)),
    delete: retried((i) => store.delete(i)),
    transactWrite: retried((i) => store.transactWrite(i)),
    query: retried((i) => store.query(i)),
    batchGet: retried((i) => store.batchGet(i)),
    batchWrite: retried((i) => store.batchWrite(i)),
  };
};
