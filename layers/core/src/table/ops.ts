import type { DeleteCommandInput, PutCommandInput, QueryCommandInput, UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Deps } from '../runtime/deps.ts';
import { TABLE, type IndexName } from './definition.ts';
import { forgetItems } from './item-cache.ts';

/**
 * The operations the domain speaks to the table through: items are plain objects, keys come
 * from keys.ts, conditions and changes are data. Every DynamoDB expression of the service is
 * compiled here; retries of unprocessed items and transaction conflicts are bounded here.
 */

/** A primary key. */
export interface Key {
  readonly pk: string;
  readonly sk: string;
}

/** A stored item. */
export type Item = Record<string, any>;

/** A condition on an item, compiled to a condition (or filter) expression. */
export type Condition =
  | { readonly exists: boolean }
  | { readonly attr: string; readonly eq: unknown }
  | { readonly attr: string; readonly ne: unknown }
  | { readonly attr: string; readonly in: readonly unknown[] }
  | { readonly attr: string; readonly lt: unknown }
  | { readonly attr: string; readonly ge: unknown }
  | { readonly attr: string; readonly gt: unknown }
  | { readonly attr: string; readonly absent: true }
  | { readonly attr: string; readonly present: true }
  /** A list attribute holds the value (or a string attribute the substring). */
  | { readonly attr: string; readonly contains: unknown }
  | { readonly or: readonly Condition[] }
  | { readonly and: readonly Condition[] };

/**
 * Attribute names are top-level names, or document paths into a map with dots
 * (`leases.<holder>`): each segment gets its own alias.
 */

/** A change to an item's attributes. */
export interface Change {
  readonly set?: Readonly<Record<string, unknown>>;
  readonly add?: Readonly<Record<string, number>>;
  readonly remove?: readonly string[];
  /** When the table's TTL deletes the item (epoch seconds). */
  readonly expiresAt?: number;
}

/** Unprocessed batch items and conflicting transactions are retried this many times. */
const MAX_RETRIES = 8;

const backoff = (attempt: number) =>
  new Promise((r) => setTimeout(r, Math.min(1000, 20 * 2 ** attempt) * (0.5 + Math.random() / 2)));

/** Builds the names and values of one expression set. */
export class Expression {
  private readonly names = new Map<string, string>();
  private readonly values: Record<string, unknown> = {};
  private n = 0;

  name(attr: string): string {
    return attr
      .split('.')
      .map((segment) => {
        let alias = this.names.get(segment);
        if (!alias) this.names.set(segment, (alias = `#a${this.names.size}`));
        return alias;
      })
      .join('.');
  }

  value(v: unknown): string {
    const alias = `:v${this.n++}`;
    this.values[alias] = v;
    return alias;
  }

  /** A condition expression; nested groups of several terms get parentheses, nothing else (DynamoDB refuses redundant ones). */
  condition(c: Condition, nested = false): string {
    const group = (terms: readonly Condition[], op: string) => {
      if (terms.length === 1) return this.condition(terms[0]!, nested);
      const joined = terms.map((t) => this.condition(t, true)).join(` ${op} `);
      return nested ? `(${joined})` : joined;
    };
    if ('or' in c) return group(c.or, 'OR');
    if ('and' in c) return group(c.and, 'AND');
    if ('exists' in c)
      return `${c.exists ? 'attribute_exists' : 'attribute_not_exists'}(${this.name(TABLE.partitionKey)})`;
    const a = this.name(c.attr);
    if ('eq' in c) return `${a} = ${this.value(c.eq)}`;
    if ('ne' in c) return `${a} <> ${this.value(c.ne)}`;
    if ('in' in c) return `${a} IN (${c.in.map((v) => this.value(v)).join(', ')})`;
    if ('lt' in c) return `${a} < ${this.value(c.lt)}`;
    if ('ge' in c) return `${a} >= ${this.value(c.ge)}`;
    if ('gt' in c) return `${a} > ${this.value(c.gt)}`;
    if ('present' in c) return `attribute_exists(${a})`;
    if ('contains' in c) return `contains(${a}, ${this.value(c.contains)})`;
    return `attribute_not_exists(${a})`;
  }

  update(change: Change): string {
    const set = Object.entries({
      ...change.set,
      ...(change.expiresAt !== undefined ? { [TABLE.ttlAttribute]: change.expiresAt } : {}),
    });
    const add = Object.entries(change.add ?? {});
    const parts = [
      set.length ? `SET ${set.map(([k, v]) => `${this.name(k)} = ${this.value(v)}`).join(', ')}` : '',
      add.length ? `ADD ${add.map(([k, v]) => `${this.name(k)} ${this.value(v)}`).join(', ')}` : '',
      change.remove?.length ? `REMOVE ${change.remove.map((k) => this.name(k)).join(', ')}` : '',
    ];
    return parts.filter(Boolean).join(' ');
  }

  params() {
    return {
      ...(this.names.size
        ? { ExpressionAttributeNames: Object.fromEntries([...this.names].map(([attr, alias]) => [alias, attr])) }
        : {}),
      ...(this.n ? { ExpressionAttributeValues: this.values } : {}),
    };
  }
}

/** The ConditionExpression of a write that holds only `when` (none without one). Call before `x.params()`. */
const conditionOf = (x: Expression, when: Condition | undefined): { ConditionExpression?: string } =>
  when ? { ConditionExpression: x.condition(when) } : {};

/** Runs a conditional write; `failed` when its condition does not hold. */
const unlessConditionFails = async <T, F>(write: () => Promise<T>, failed: F): Promise<T | F> => {
  try {
    return await write();
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) return failed;
    throw error;
  }
};

/** Reads one item (strongly consistent unless told otherwise). */
export const getItem = async (deps: Deps, key: Key, consistent = true): Promise<Item | undefined> =>
  (await deps.tableStore.get({ TableName: deps.table, Key: key, ConsistentRead: consistent })).Item;

/** Writes an item; false when `when` does not hold. */
export const putItem = (deps: Deps, item: Item, when?: Condition): Promise<boolean> => {
  const x = new Expression();
  const input: PutCommandInput = { TableName: deps.table, Item: item, ...conditionOf(x, when), ...x.params() };
  forgetItems(deps.itemCache, [item]);
  return unlessConditionFails(async () => {
    await deps.tableStore.put(input);
    return true;
  }, false);
};

/** Changes an item and returns it as stored afterwards; undefined when `when` does not hold. */
export const updateItem = (deps: Deps, key: Key, change: Change, when?: Condition): Promise<Item | undefined> => {
  const x = new Expression();
  const UpdateExpression = x.update(change);
  const input: UpdateCommandInput = {
    TableName: deps.table,
    Key: key,
    UpdateExpression,
    ...conditionOf(x, when),
    ...x.params(),
    ReturnValues: 'ALL_NEW',
  };
  forgetItems(deps.itemCache, [key]);
  return unlessConditionFails(async () => (await deps.tableStore.update(input)).Attributes ?? {}, undefined);
};

/**
 * Changes an item as updateItem does; when `when` does not hold, answers the item as it stood
 * (DynamoDB returns it with the refusal, so no second read), undefined where there was none.
 */
export const updateItemOrRead = async (
  deps: Deps,
  key: Key,
  change: Change,
  when: Condition,
): Promise<{ ok: true; item: Item } | { ok: false; item: Item | undefined }> => {
  const x = new Expression();
  const UpdateExpression = x.update(change);
  const input: UpdateCommandInput = {
    TableName: deps.table,
    Key: key,
    UpdateExpression,
    ...conditionOf(x, when),
    ...x.params(),
    ReturnValues: 'ALL_NEW',
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  };
  forgetItems(deps.itemCache, [key]);
  try {
    return { ok: true, item: (await deps.tableStore.update(input)).Attributes ?? {} };
  } catch (error) {
    if (!(error instanceof ConditionalCheckFailedException)) throw error;
    // The refusal carries the item in DynamoDB's own attribute format.
    return { ok: false, item: error.Item ? unmarshall(error.Item) : undefined };
  }
};

/** Deletes an item; false when `when` does not hold. */
export const deleteItem = (deps: Deps, key: Key, when?: Condition): Promise<boolean> => {
  const x = new Expression();
  const input: DeleteCommandInput = { TableName: deps.table, Key: key, ...conditionOf(x, when), ...x.params() };
  forgetItems(deps.itemCache, [key]);
  return unlessConditionFails(async () => {
    await deps.tableStore.delete(input);
    return true;
  }, false);
};

/**
 * Adds to counters of one item, each kept at or under its ceiling, in one conditional write;
 * returns the item afterwards, or undefined when an addition would pass a ceiling.
 */
export const addToCounters = (
  deps: Deps,
  key: Key,
  counters: {
    add: Readonly<Record<string, number>>;
    ceilings?: Readonly<Record<string, number>>;
    expiresAt?: number;
    set?: Readonly<Record<string, unknown>>;
  },
): Promise<Item | undefined> => {
  const limits = Object.entries(counters.ceilings ?? {});
  const when: Condition | undefined = limits.length
    ? {
        and: limits.map(([attr, max]) => ({
          or: [
            { attr, absent: true as const },
            { attr, lt: max - (counters.add[attr] ?? 0) + 1 },
          ],
        })),
      }
    : undefined;
  return updateItem(
    deps,
    key,
    {
      add: counters.add,
      ...(counters.set ? { set: counters.set } : {}),
      ...(counters.expiresAt !== undefined ? { expiresAt: counters.expiresAt } : {}),
    },
    when,
  );
};

/** One write of a transaction. */
export type Write =
  | { readonly put: Item; readonly when?: Condition }
  | { readonly delete: Key; readonly when?: Condition }
  | { readonly update: Key; readonly change: Change; readonly when?: Condition };

const compile = (deps: Deps, w: Write) => {
  const x = new Expression();
  const TableName = deps.table;
  if ('put' in w) return { Put: { TableName, Item: w.put, ...conditionOf(x, w.when), ...x.params() } };
  if ('delete' in w) return { Delete: { TableName, Key: w.delete, ...conditionOf(x, w.when), ...x.params() } };
  const UpdateExpression = x.update(w.change);
  return { Update: { TableName, Key: w.update, UpdateExpression, ...conditionOf(x, w.when), ...x.params() } };
};

/**
 * Writes all or nothing. Returns false when a condition does not hold (the index of the first
 * failing write in `failed`); a conflict with another transaction is retried, boundedly.
 */
export const transact = async (
  deps: Deps,
  writes: readonly Write[],
): Promise<{ ok: true } | { ok: false; failed: number }> => {
  const TransactItems = writes.map((w) => compile(deps, w));
  forgetItems(
    deps.itemCache,
    writes.map((w) => ('put' in w ? w.put : 'delete' in w ? w.delete : w.update)),
  );
  for (let attempt = 0; ; attempt++) {
    try {
      await deps.tableStore.transactWrite({ TransactItems: TransactItems as any });
      return { ok: true };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const failed = reasons.findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (failed >= 0) return { ok: false, failed };
      if (attempt >= MAX_RETRIES) throw error;
      await backoff(attempt);
    }
  }
};

/** Where a query reads: a partition of the table or of an index, optionally a sort-key range. */
export interface Range {
  readonly pk: string;
  readonly index?: IndexName;
  /** Sort keys starting with this. */
  readonly prefix?: string;
  /** Sort keys strictly below this. */
  readonly below?: string;
  /** Sort keys from the first to the second, both included. */
  readonly between?: readonly [string, string];
  /** Sort keys at or above this. */
  readonly from?: string;
  readonly filter?: Condition;
  /** Only these attributes. */
  readonly project?: readonly string[];
  readonly consistent?: boolean;
  /** Items per page (DynamoDB's own page size when absent). */
  readonly pageSize?: number;
  /** Highest sort key first. */
  readonly descending?: boolean;
}

const queryInput = (deps: Deps, r: Range, start: Record<string, unknown> | undefined): QueryCommandInput => {
  const x = new Expression();
  const pk = x.name(r.index ? `${r.index}pk` : TABLE.partitionKey);
  const sk = () => x.name(r.index ? `${r.index}sk` : TABLE.sortKey);
  const key = [`${pk} = ${x.value(r.pk)}`];
  if (r.prefix) key.push(`begins_with(${sk()}, ${x.value(r.prefix)})`);
  if (r.below !== undefined) key.push(`${sk()} < ${x.value(r.below)}`);
  if (r.between) key.push(`${sk()} BETWEEN ${x.value(r.between[0])} AND ${x.value(r.between[1])}`);
  if (r.from !== undefined) key.push(`${sk()} >= ${x.value(r.from)}`);
  const filter = r.filter ? x.condition(r.filter) : undefined;
  const projection = r.project?.map((a) => x.name(a)).join(', ');
  return {
    TableName: deps.table,
    ...(r.index ? { IndexName: r.index } : {}),
    KeyConditionExpression: key.join(' AND '),
    ...(filter ? { FilterExpression: filter } : {}),
    ...(projection ? { ProjectionExpression: projection } : {}),
    ...(r.consistent ? { ConsistentRead: true } : {}),
    ...(r.pageSize ? { Limit: r.pageSize } : {}),
    ...(r.descending ? { ScanIndexForward: false } : {}),
    ...x.params(),
    ...(start ? { ExclusiveStartKey: start } : {}),
  };
};

/** The pages of a range, in sort-key order, each with the cursor to resume after it. */
export async function* queryPages(
  deps: Deps,
  r: Range,
  from?: Record<string, unknown>,
): AsyncGenerator<{ items: Item[]; next: Record<string, unknown> | undefined }> {
  let start = from;
  do {
    const out = await deps.tableStore.query(queryInput(deps, r, start));
    start = out.LastEvaluatedKey;
    yield { items: out.Items ?? [], next: start };
  } while (start);
}

/** Every item of a range (every page). */
export const queryAll = async (deps: Deps, r: Range): Promise<Item[]> => {
  const items: Item[] = [];
  for await (const page of queryPages(deps, r)) items.push(...page.items);
  return items;
};

/** How many items a range holds (every page counted). */
export const countItems = async (deps: Deps, r: Range): Promise<number> => {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await deps.tableStore.query({ ...queryInput(deps, r, start), Select: 'COUNT' });
    count += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return count;
};

/**
 * Creates a counter item holding how many items `counted` has, when the counter is missing (items
 * written before it existed), so conditional writes on it start from the truth; a concurrent
 * seed that got there first wins.
 */
export const seedCounter = async (deps: Deps, counter: Key, type: string, counted: Range): Promise<void> => {
  if (await getItem(deps, counter)) return;
  await putItem(deps, { ...counter, type, count: await countItems(deps, counted) }, { exists: false });
};

/** Batch requests of one call in flight at once. */
const BATCH_CONCURRENCY = 8;

/** Runs `work` over `items` with at most `limit` at once. */
const eachLimited = async <T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> => {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
};

/** Reads many items by key, 100 per call and up to 8 calls at once, retrying unprocessed keys (boundedly). */
export const batchGetItems = async (deps: Deps, keyList: readonly Key[], consistent = true): Promise<Item[]> => {
  const rows: Item[] = [];
  const chunks: Key[][] = [];
  for (let i = 0; i < keyList.length; i += 100) chunks.push(keyList.slice(i, i + 100));
  await eachLimited(chunks, BATCH_CONCURRENCY, async (chunk) => {
    let request: Record<string, any> | undefined = { [deps.table]: { Keys: chunk, ConsistentRead: consistent } };
    for (let attempt = 0; request && Object.keys(request).length > 0; attempt++) {
      if (attempt > MAX_RETRIES)
        throw new Error(
          `DynamoDB left ${request[deps.table]?.Keys?.length} keys unprocessed after ${MAX_RETRIES} retries`,
        );
      if (attempt > 0) await backoff(attempt);
      const out: any = await deps.tableStore.batchGet({ RequestItems: request });
      rows.push(...(out.Responses?.[deps.table] ?? []));
      request = out.UnprocessedKeys;
    }
  });
  return rows;
};

/** Writes and deletes many items, 25 per call and up to 8 calls at once, retrying unprocessed items (boundedly). */
export const batchWriteItems = async (
  deps: Deps,
  writes: { put?: readonly Item[]; delete?: readonly Key[] },
): Promise<void> => {
  const requests = [
    ...(writes.put ?? []).map((Item) => ({ PutRequest: { Item } })),
    ...(writes.delete ?? []).map((Key) => ({ DeleteRequest: { Key } })),
  ];
  forgetItems(deps.itemCache, [...(writes.put ?? []), ...(writes.delete ?? [])]);
  const chunks: (typeof requests)[] = [];
  for (let i = 0; i < requests.length; i += 25) chunks.push(requests.slice(i, i + 25));
  await eachLimited(chunks, BATCH_CONCURRENCY, async (chunk) => {
    let request: Record<string, any> | undefined = { [deps.table]: chunk };
    for (let attempt = 0; request && Object.keys(request).length > 0; attempt++) {
      if (attempt > MAX_RETRIES)
        throw new Error(`DynamoDB left ${request[deps.table]?.length} writes unprocessed after ${MAX_RETRIES} retries`);
      if (attempt > 0) await backoff(attempt);
      const out: any = await deps.tableStore.batchWrite({ RequestItems: request });
      request = out.UnprocessedItems;
    }
  });
};
