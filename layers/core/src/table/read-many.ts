import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../runtime/deps.ts';

/** Reads many items by key, 100 per call, retrying unprocessed keys. */
export const batchGetItems = async (deps: Deps, keyList: readonly Record<string, string>[]): Promise<Record<string, any>[]> => {
  const rows: Record<string, any>[] = [];
  for (let i = 0; i < keyList.length; i += 100) {
    let request: Record<string, any> | undefined = { [deps.table]: { Keys: keyList.slice(i, i + 100), ConsistentRead: true } };
    while (request && Object.keys(request).length > 0) {
      const out: any = await deps.db.send(new BatchGetCommand({ RequestItems: request }));
      rows.push(...(out.Responses?.[deps.table] ?? []));
      request = out.UnprocessedKeys;
    }
  }
  return rows;
};

/** Every item of a partition whose sort key starts with `prefix`. */
export const queryAll = async (deps: Deps, pk: string, prefix: string): Promise<Record<string, any>[]> => {
  const items: Record<string, any>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await deps.db.send(new QueryCommand({
      TableName: deps.table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': pk, ':p': prefix },
      ExclusiveStartKey: start,
    }));
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
};
