import { describe, expect, it } from 'vitest';
import type { SQSBatchResponse } from 'aws-lambda';
import { ChangeMessageVisibilityBatchCommand, DeleteMessageBatchCommand } from '@aws-sdk/client-sqs';
import { QUEUES, WORKERS, queueVisibilitySeconds, readQueueVisibility } from '../../../functions/workers.ts';
import { failedRecordHoldSeconds, invoke } from '../../../lib/local/workers.ts';
import { readStackConfig } from '../../../lib/config.ts';

/** The local poller's calls to the queue after one invocation, on a clock the test moves. */
const afterInvocation = async (visibilitySeconds: number, runsMs: number, result: SQSBatchResponse) => {
  const calls: unknown[] = [];
  let now = Date.parse('2026-11-23T12:00:00Z');
  const worker = WORKERS.find((w) => w.queue === 'send')!;
  await invoke(
    { send: async (command: unknown) => void calls.push(command) } as never,
    worker,
    async () => {
      now += runsMs;
      return result;
    },
    'http://queue/send',
    [
      { MessageId: 'm1', ReceiptHandle: 'r1', Body: '{}' },
      { MessageId: 'm2', ReceiptHandle: 'r2', Body: '{}' },
    ],
    { counters: undefined, visibilitySeconds, clock: () => now },
  );
  return calls;
};

describe("a failed record comes back after the queue's visibility, as on AWS", () => {
  it('is 300 s on every work queue by default, as the stack sets it (six times the 50 s worker timeout)', () => {
    for (const name of Object.keys(QUEUES) as (keyof typeof QUEUES)[])
      expect([name, queueVisibilitySeconds(name)]).toEqual([
        name,
        WORKERS.some((w) => w.queue === name) ? 300 : undefined,
      ]);
    expect(queueVisibilitySeconds('send', readQueueVisibility('2', 'QUEUE_VISIBILITY_SECONDS'))).toBe(2);
  });

  it('the local poller hides a record its worker failed for what is left of the 300 s, not 1 s', async () => {
    // Act: the worker runs 1.5 s and fails the second record.
    const calls = await afterInvocation(300, 1_500, { batchItemFailures: [{ itemIdentifier: 'm2' }] });

    // Assess: the handled one deleted, the failed one back 300 s after its receive.
    expect(calls).toHaveLength(2);
    expect(calls[0]).toBeInstanceOf(DeleteMessageBatchCommand);
    expect(calls[1]).toBeInstanceOf(ChangeMessageVisibilityBatchCommand);
    expect((calls[1] as ChangeMessageVisibilityBatchCommand).input.Entries).toEqual([
      { Id: '0', ReceiptHandle: 'r2', VisibilityTimeout: 299 },
    ]);
  });

  it('with the visibility shortened through the setting, and after a second when the worker outran it', async () => {
    const calls = await afterInvocation(2, 5_000, { batchItemFailures: [{ itemIdentifier: 'm1' }] });
    expect((calls[1] as ChangeMessageVisibilityBatchCommand).input.Entries).toEqual([
      { Id: '0', ReceiptHandle: 'r1', VisibilityTimeout: 1 },
    ]);
    expect(failedRecordHoldSeconds(2, 800)).toBe(2);
  });

  it('refuses a setting that is not whole seconds within SQS’s 12 hours', () => {
    for (const bad of ['0', '1.5', 'soon', '43201'])
      expect(() => readQueueVisibility(bad, 'mailstack:queueVisibilitySeconds')).toThrow(/whole number of seconds/);
    expect(readQueueVisibility(undefined, 'x')).toBeUndefined();
  });

  it('is the same setting the stack reads from CDK context', () => {
    expect(readStackConfig(() => undefined).queueVisibilitySeconds).toBeUndefined();
    expect(readStackConfig((k) => (k === 'mailstack:queueVisibilitySeconds' ? '600' : undefined))).toMatchObject({
      queueVisibilitySeconds: 600,
    });
  });
});
