import { keys } from '@mailstack/core/table/keys';
import { testDeps } from './local.ts';

/** Every event record of a team, oldest first (read straight from the table). */
export const eventsOf = async (teamId: string): Promise<{ type: string; data: any }[]> => {
  const d = testDeps();
  const rows: any[] = [];
  for (let shard = 0; shard < keys.event.shards; shard++) {
    const out = await d.tableStore.query({
      TableName: d.table,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.event.partition(teamId, shard) },
      ConsistentRead: true,
    });
    rows.push(...(out.Items ?? []));
  }
  return rows.sort((a, b) => (a.id < b.id ? -1 : 1)).map((r) => ({ type: r.event_type, data: r.data }));
};
