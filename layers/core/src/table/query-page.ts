import type { QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../runtime/deps.ts';
import type { Page, PageRequest } from '../domain/paging.ts';
import { TABLE, type IndexName } from './definition.ts';
import { Expression, type Condition } from './ops.ts';

/** Where a list lives: a partition and a sort-key prefix followed by the item's UUIDv7 id. */
export interface ListLocation {
  readonly pk: string;
  readonly prefix: string;
  /** Read from a GSI (its gsiNpk/gsiNsk attributes) instead of the base table. */
  readonly index?: IndexName;
  /** Optional filter on non-key attributes. */
  readonly filter?: Condition;
}

/**
 * One page of a newest-first list with the spec's cursors: `after` gives the items older than
 * that id, `before` the items newer than it; the cursor item itself is excluded.
 */
export const queryPage = async (
  deps: Deps,
  where: ListLocation,
  page: PageRequest,
): Promise<Page<Record<string, any>>> => {
  const pkAttr = where.index ? `${where.index}pk` : TABLE.partitionKey;
  const skAttr = where.index ? `${where.index}sk` : TABLE.sortKey;
  const forward = page.before !== undefined;
  const cursor = page.after ?? page.before;
  // A key condition value may not be empty: with no prefix, start below every id character.
  const lower = page.before ? `${where.prefix}${page.before}` : where.prefix || ' ';
  const upper = page.after ? `${where.prefix}${page.after}` : `${where.prefix}\uffff`;
  const items: Record<string, any>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const x = new Expression();
    const filter = where.filter ? x.condition(where.filter) : undefined;
    const input: QueryCommandInput = {
      TableName: deps.table,
      ...(where.index ? { IndexName: where.index } : {}),
      KeyConditionExpression: `${x.name(pkAttr)} = ${x.value(where.pk)} AND ${x.name(skAttr)} BETWEEN ${x.value(lower)} AND ${x.value(upper)}`,
      ...x.params(),
      ScanIndexForward: forward,
      Limit: page.limit + 2,
      ...(filter ? { FilterExpression: filter } : {}),
      ...(start ? { ExclusiveStartKey: start } : {}),
    };
    const out = await deps.tableStore.query(input);
    for (const item of out.Items ?? []) {
      if (cursor !== undefined && item[skAttr] === `${where.prefix}${cursor}`) continue;
      items.push(item);
    }
    start = out.LastEvaluatedKey;
  } while (start && items.length <= page.limit);
  const hasMore = items.length > page.limit;
  const slice = items.slice(0, page.limit);
  return { items: forward ? slice.reverse() : slice, hasMore };
};

/**
 * Merges one page read from each shard of a list (each with the same request) into the page of
 * the whole list, newest first by `order` (the sort key: the item's time-ordered id). With
 * `before`, each shard gave the items just newer than the cursor, so the page is the oldest
 * `limit` of them; otherwise the newest `limit`. More follow when the shards gave more than a
 * page between them or any shard has more.
 */
export const mergeShardPages = <T>(
  pages: readonly Page<T>[],
  page: PageRequest,
  order: (item: T) => string,
): Page<T> => {
  const merged = pages.flatMap((p) => p.items).sort((a, b) => (order(a) < order(b) ? 1 : order(a) > order(b) ? -1 : 0));
  const items = page.before ? merged.slice(Math.max(0, merged.length - page.limit)) : merged.slice(0, page.limit);
  return { items, hasMore: merged.length > page.limit || pages.some((p) => p.hasMore) };
};

/** One page of a list spread over several partitions (its shards): each read, then merged by sort key. */
export const queryShardedPage = async (
  deps: Deps,
  shards: readonly ListLocation[],
  page: PageRequest,
): Promise<Page<Record<string, any>>> => {
  const skAttr = (where: ListLocation) => (where.index ? `${where.index}sk` : TABLE.sortKey);
  const pages = await Promise.all(
    shards.map(async (where) => {
      const { items, hasMore } = await queryPage(deps, where, page);
      return { items: items.map((item) => ({ item, order: String(item[skAttr(where)]) })), hasMore };
    }),
  );
  const merged = mergeShardPages(pages, page, (x) => x.order);
  return { items: merged.items.map((x) => x.item), hasMore: merged.hasMore };
};
