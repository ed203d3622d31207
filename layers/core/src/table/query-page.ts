import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../runtime/deps.ts';
import type { IndexName } from './definition.ts';

/** Where a list lives: a partition and a sort-key prefix followed by the item's UUIDv7 id. */
export interface ListLocation {
  readonly pk: string;
  readonly prefix: string;
  /** Read from a GSI (its gsiNpk/gsiNsk attributes) instead of the base table. */
  readonly index?: IndexName;
  /** Optional filter on non-key attributes. */
  readonly filter?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> };
}

/**
 * One page of a newest-first list with the spec's cursors: `after` gives the items older than
 * that id, `before` the items newer than it; the cursor item itself is excluded.
 */
export const queryPage = async (
  deps: Deps,
  where: ListLocation,
  page: { limit: number; after?: string | undefined; before?: string | undefined },
): Promise<{ items: Record<string, any>[]; hasMore: boolean }> => {
  const pkAttr = where.index ? `${where.index}pk` : 'pk';
  const skAttr = where.index ? `${where.index}sk` : 'sk';
  const forward = page.before !== undefined;
  const cursor = page.after ?? page.before;
  // A key condition value may not be empty: with no prefix, start below every id character.
  const lower = page.before ? `${where.prefix}${page.before}` : where.prefix || ' ';
  const upper = page.after ? `${where.prefix}${page.after}` : `${where.prefix}\uffff`;
  const items: Record<string, any>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const input: QueryCommandInput = {
      TableName: deps.table,
      ...(where.index ? { IndexName: where.index } : {}),
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :lower AND :upper',
      ExpressionAttributeNames: { '#pk': pkAttr, '#sk': skAttr, ...where.filter?.names },
      ExpressionAttributeValues: { ':pk': where.pk, ':lower': lower, ':upper': upper, ...where.filter?.values },
      ScanIndexForward: forward,
      Limit: page.limit + 2,
      ...(where.filter ? { FilterExpression: where.filter.expression } : {}),
      ...(start ? { ExclusiveStartKey: start } : {}),
    };
    const out = await deps.db.send(new QueryCommand(input));
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
