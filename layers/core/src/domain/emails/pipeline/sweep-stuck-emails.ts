import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../../runtime/deps.ts';
import { keys } from '../../../table/keys.ts';
import { calendarOf } from '../../usage/get-usage.ts';
import type { SendJob } from '../email.ts';

/**
 * Finds emails still before the provider past the deadline (stored but never queued, queued but
 * the message lost, a worker that died holding the claim) and queues them again; the send
 * worker's claim makes a duplicate message harmless. Parked emails are released after the UTC
 * day they were parked in.
 */
export const sweepStuckEmails = async (deps: Deps): Promise<{ requeued: number; released: number }> => {
  const now = deps.clock.now();
  const cutoff = new Date(now - deps.config.SWEEP_AFTER_SECONDS * 1000).toISOString();
  const today = calendarOf(now).day;
  const jobs: { body: SendJob }[] = [];
  let released = 0;
  for (let shard = 0; shard < keys.email.pendingShards; shard++) {
    let start: Record<string, unknown> | undefined;
    do {
      const out = await deps.db.send(new QueryCommand({
        TableName: deps.table,
        IndexName: 'gsi3',
        KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk < :cutoff',
        ExpressionAttributeValues: { ':pk': keys.email.pendingPartition(shard), ':cutoff': cutoff },
        ExclusiveStartKey: start,
      }));
      for (const e of out.Items ?? []) {
        if (e.status === 'held') continue; // waits for review (releaseHeldEmails)
        if (e.status === 'queued_quota') {
          if (String(e.created_at).slice(0, 10) >= today) continue;
          await deps.db.send(new UpdateCommand({
            TableName: deps.table, Key: keys.email.item(e.team_id, e.id),
            UpdateExpression: 'SET #s = :queued', ConditionExpression: '#s = :parked',
            ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':queued': 'queued', ':parked': 'queued_quota' },
          })).catch(() => undefined);
          released++;
        } else if (e.status === 'scheduled' && e.scheduled_at && Date.parse(e.scheduled_at) > now - deps.config.SWEEP_AFTER_SECONDS * 1000) {
          continue;
        }
        jobs.push({ body: { teamId: e.team_id, emailId: e.id } });
      }
      start = out.LastEvaluatedKey;
    } while (start);
  }
  await deps.queue.send(deps.config.SEND_QUEUE_URL, jobs);
  return { requeued: jobs.length, released };
};
