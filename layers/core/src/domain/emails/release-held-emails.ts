import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import type { SendJob } from './email.ts';

/** Ends the review of a team's held emails: they go out (the operator's decision, `npm run admin -- teams release`). */
export const releaseHeldEmails = async (deps: Deps, teamId: string): Promise<number> => {
  const jobs: { body: SendJob }[] = [];
  for (let shard = 0; shard < keys.email.listShards; shard++) {
    let start: Record<string, unknown> | undefined;
    do {
      const out = await deps.db.send(new QueryCommand({
        TableName: deps.table, IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk', FilterExpression: '#s = :held',
        ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':pk': keys.email.listPartition(teamId, shard), ':held': 'held' },
        ExclusiveStartKey: start,
      }));
      for (const e of out.Items ?? []) {
        try {
          await deps.db.send(new UpdateCommand({
            TableName: deps.table, Key: keys.email.item(teamId, e.id),
            UpdateExpression: 'SET #s = :queued', ConditionExpression: '#s = :held',
            ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':queued': 'queued', ':held': 'held' },
          }));
          jobs.push({ body: { teamId, emailId: e.id } });
        } catch (error) {
          if (!(error instanceof ConditionalCheckFailedException)) throw error;
        }
      }
      start = out.LastEvaluatedKey;
    } while (start);
  }
  await deps.queue.send(deps.config.SEND_QUEUE_URL, jobs);
  return jobs.length;
};
