import {
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  ConflictException,
  type SchedulerClient,
} from '@aws-sdk/client-scheduler';
import type { Scheduler } from '../../ports/scheduler.ts';

/** Formats epoch ms as Scheduler's `at(yyyy-mm-ddThh:mm:ss)` expression (UTC). */
const atExpression = (ms: number): string => `at(${new Date(ms).toISOString().slice(0, 19)})`;

/** EventBridge Scheduler one-time schedules targeting an SQS queue; they delete themselves after running. */
export const eventBridgeScheduler = (
  client: SchedulerClient,
  group: string,
  roleArn: string,
  queueArnOf: (url: string) => string,
): Scheduler => ({
  async schedule({ name, at, queueUrl, body }) {
    const input = {
      Name: name,
      GroupName: group,
      ScheduleExpression: atExpression(at),
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' as const },
      ActionAfterCompletion: 'DELETE' as const,
      Target: { Arn: queueArnOf(queueUrl), RoleArn: roleArn, Input: JSON.stringify(body) },
    };
    try {
      await client.send(new CreateScheduleCommand(input));
    } catch (error) {
      if (!(error instanceof ConflictException)) throw error;
      await this.cancel(name);
      await client.send(new CreateScheduleCommand(input));
    }
  },
  async cancel(name) {
    try {
      await client.send(new DeleteScheduleCommand({ Name: name, GroupName: group }));
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
    }
  },
});
