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
 * When inside its minute a local schedule fires. EventBridge Scheduler invokes its target with 60
 * second precision: a schedule `at` 1:00:40 fires anywhere from 1:00:00 to 1:00:59, so up to 40
 * seconds early or 19 late (https://docs.aws.amazon.com/scheduler/latest/UserGuide/schedule-types.html).
 * `anywhere` (the default) picks the instant at random when the schedule is made; `minute-start`
 * and `minute-end` pin it to the minute's first or last millisecond (the earliest and the latest
 * AWS may fire), for a host that wants the worst case every time.
 */
export type SchedulerFiring = 'anywhere' | 'minute-start' | 'minute-end';

/** The instant a schedule `at` fires, inside `at`'s minute as EventBridge Scheduler fires it. */
export const firingInstant = (at: number, firing: SchedulerFiring, random: () => number = Math.random): number => {
  const minute = Math.floor(at / 60_000) * 60_000;
  if (firing === 'minute-start') return minute;
  if (firing === 'minute-end') return minute + 59_999;
  return minute + Math.floor(random() * 60_000);
};

/** A schedule the local timer loop found due, with the instant it fired at. */
export interface DueSchedule extends ScheduleRequest {
  readonly firesAt: number;
}

/**
 * Schedules kept as due items in the table, for hosts without EventBridge Scheduler (the local
 * host). Each is due at the instant inside its minute that `firing` gives (as EventBridge Scheduler
 * fires), not at its exact `at`. A timer loop calls `takeDue` and sends what it returns; an item is
 * deleted only after its message is sent, so a crash between the two re-sends rather than loses.
 */
export const tableScheduler = (db: DynamoDBDocumentClient, table: string, firing: SchedulerFiring = 'anywhere') => {
  const scheduler: Scheduler = {
    async schedule({ name, at, queueUrl, body }) {
      await scheduler.cancel(name);
      const firesAt = firingInstant(at, firing);
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: table,
                Item: { ...keys.schedule.byName(name), type: 'schedule', at, fires_at: firesAt },
              },
            },
            {
              Put: {
                TableName: table,
                Item: {
                  ...keys.schedule.due(firesAt, name),
                  type: 'schedule_due',
                  name,
                  at,
                  fires_at: firesAt,
                  queueUrl,
                  body,
                },
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
            {
              Delete: {
                TableName: table,
                Key: keys.schedule.due((found.Item.fires_at ?? found.Item.at) as number, name),
              },
            },
          ],
        }),
      );
    },
  };
  return {
    ...scheduler,
    /** Schedules whose firing instant has come at `now`, earliest first. */
    async takeDue(now: number, limit = 100): Promise<DueSchedule[]> {
      const out = await db.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :pk AND sk < :upto',
          ExpressionAttributeValues: { ':pk': keys.schedule.duePartition(), ':upto': keys.schedule.dueBefore(now) },
          Limit: limit,
        }),
      );
      return (out.Items ?? []).map((i) => ({
        name: i.name,
        at: i.at,
        firesAt: i.fires_at ?? i.at,
        queueUrl: i.queueUrl,
        body: i.body,
      }));
    },
    /** Removes a schedule that has run. */
    async done(request: DueSchedule): Promise<void> {
      await db.send(new DeleteCommand({ TableName: table, Key: keys.schedule.due(request.firesAt, request.name) }));
      await db
        .send(
          new DeleteCommand({
            TableName: table,
            Key: keys.schedule.byName(request.name),
            // Unless made again since (another firing instant): that one has not run.
            ConditionExpression:
              'attribute_not_exists(pk) OR fires_at = :f OR (attribute_not_exists(fires_at) AND #at = :at)',
            ExpressionAttributeNames: { '#at': 'at' },
            ExpressionAttributeValues: { ':f': request.firesAt, ':at': request.at },
          }),
        )
        .catch(() => undefined);
    },
  };
};
