import {
  DeleteCommand,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { Scheduler, ScheduleRequest } from '../../ports/scheduler.ts';
import { keys } from '../../table/keys.ts';

/**
 * Schedules kept as due items in the table, for hosts without EventBridge Scheduler (the local
 * host). A timer loop calls `takeDue` and sends what it returns; an item is deleted only after
 * its message is sent, so a crash between the two re-sends rather than loses.
 */
export const tableScheduler = (db: DynamoDBDocumentClient, table: string) => {
  const scheduler: Scheduler = {
    async schedule({ name, at, queueUrl, body }) {
      await scheduler.cancel(name);
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: table, Item: { ...keys.schedule.byName(name), type: 'schedule', at } } },
            {
              Put: {
                TableName: table,
                Item: { ...keys.schedule.due(at, name), type: 'schedule_due', name, at, queueUrl, body },
              },
            },
          ],
        }),
      );
    },
    async cancel(name) {
      const found = await db.send(
        new GetCommand({ TableName: table, Key: keys.schedule.byName(name), ConsistentRead: true }),
      );
      if (!found.Item) return;
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: table, Key: keys.schedule.byName(name) } },
            { Delete: { TableName: table, Key: keys.schedule.due(found.Item.at as number, name) } },
          ],
        }),
      );
    },
  };
  return {
    ...scheduler,
    /** Due schedules at `now`, oldest first. */
    async takeDue(now: number, limit = 100): Promise<ScheduleRequest[]> {
      const out = await db.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :pk AND sk < :upto',
          ExpressionAttributeValues: { ':pk': keys.schedule.duePartition(), ':upto': keys.schedule.dueBefore(now) },
          Limit: limit,
        }),
      );
      return (out.Items ?? []).map((i) => ({ name: i.name, at: i.at, queueUrl: i.queueUrl, body: i.body }));
    },
    /** Removes a schedule that has run. */
    async done(request: ScheduleRequest): Promise<void> {
      await db.send(new DeleteCommand({ TableName: table, Key: keys.schedule.due(request.at, request.name) }));
      await db
        .send(
          new DeleteCommand({
            TableName: table,
            Key: keys.schedule.byName(request.name),
            ConditionExpression: 'attribute_not_exists(pk) OR #at = :at',
            ExpressionAttributeNames: { '#at': 'at' },
            ExpressionAttributeValues: { ':at': request.at },
          }),
        )
        .catch(() => undefined);
    },
  };
};
