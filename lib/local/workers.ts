import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import {
  ChangeMessageVisibilityBatchCommand,
  DeleteMessageBatchCommand,
  ReceiveMessageCommand,
  type Message,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSEvent, SQSBatchResponse } from 'aws-lambda';
import { WORKERS, TIMERS, queueVisibilitySeconds, type QueueName, type WorkerEntry } from '../../functions/workers.ts';
import type { ScheduleRequest } from '@mailstack/core/ports/scheduler';
import { lambdaContext } from './events.ts';
import { countedAs, countInvocation, sqsRequests, type AdapterCounters } from '@mailstack/core/adapters/aws/counters';

type SqsHandler = (event: SQSEvent, context: unknown) => Promise<SQSBatchResponse | undefined>;

const load = async <T>(functionsDir: string, entry: string): Promise<T> =>
  (await import(pathToFileURL(resolve(functionsDir, `${entry}.ts`)).href)).handler as T;

/** A stoppable background loop. */
export interface Loop {
  stop(): Promise<void>;
}

/** The pause after an empty poll doubles from 20 ms up to this (the first message after a quiet spell waits at most this long). */
const LONGEST_IDLE_PAUSE_MS = 200;

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Polls each worker's queue and calls the worker with SQS-shaped events, honouring
 * `batchItemFailures`: failed messages stay on the queue and come back after the queue's
 * visibility (`visibilitySeconds`, as the stack sets it on AWS: 300 s by default). Attempt counts
 * travel in the message or the item, not in ApproximateReceiveCount.
 *
 * Like Lambda's event source mapping, one poller per queue hands batches to up to `concurrency`
 * invocations at once. It polls without waiting on the queue (the embedded SQS engine answers a
 * long poll only when the batch is full or the wait is over, which held a lone message for a
 * second at every hop) and pauses between empty polls instead.
 */
export const startWorkers = (
  sqs: SQSClient,
  functionsDir: string,
  queueUrls: Record<QueueName, string>,
  counters?: AdapterCounters,
  visibilitySeconds: (queue: QueueName) => number = (queue) => queueVisibilitySeconds(queue) ?? 0,
): Loop => {
  let running = true;
  const loops = WORKERS.map(async (worker) => {
    const handler = await load<SqsHandler>(functionsDir, worker.entry);
    const queueUrl = queueUrls[worker.queue];
    const slots = worker.concurrency ?? 1;
    const inFlight = new Set<Promise<void>>();
    let quiet = 0;
    while (running) {
      if (inFlight.size >= slots) {
        await Promise.race(inFlight);
        continue;
      }
      let messages: Message[];
      try {
        const out = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: worker.batchSize ?? 10,
            WaitTimeSeconds: 0,
            AttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
        );
        messages = out.Messages ?? [];
      } catch (error) {
        if (running) {
          console.error(`worker ${worker.name}: queue read failed`, error);
          await pause(500);
        }
        continue;
      }
      if (messages.length === 0) {
        await pause(Math.min(20 * 2 ** quiet++, LONGEST_IDLE_PAUSE_MS));
        continue;
      }
      quiet = 0;
      const run: Promise<void> = invoke(sqs, worker, handler, queueUrl, messages, {
        counters,
        visibilitySeconds: visibilitySeconds(worker.queue),
      }).finally(() => inFlight.delete(run));
      inFlight.add(run);
    }
    await Promise.allSettled(inFlight);
  });
  return {
    stop: async () => {
      running = false;
      await Promise.allSettled(loops);
    },
  };
};

/**
 * Seconds a failed record stays hidden after its worker gave it back: what is left of the queue's
 * visibility since the record was received (SQS counts it from the receive, and Lambda's event
 * source mapping leaves a failed record to it). At least a second: with a visibility shortened
 * below a worker's run (on AWS it is never below the function's timeout), records that keep
 * failing would otherwise come straight back and keep the pollers from the rest of the queue.
 */
export const failedRecordHoldSeconds = (visibilitySeconds: number, heldMs: number): number =>
  Math.max(1, Math.ceil(visibilitySeconds - heldMs / 1000));

/**
 * One invocation of a worker on a received batch; deletes what it handled, and leaves what failed
 * hidden until the queue's visibility, counted from the receive, runs out (as on AWS).
 */
export const invoke = async (
  sqs: Pick<SQSClient, 'send'>,
  worker: WorkerEntry,
  handler: SqsHandler,
  queueUrl: string,
  messages: readonly Message[],
  {
    counters,
    visibilitySeconds,
    clock = Date.now,
  }: {
    counters: AdapterCounters | undefined;
    visibilitySeconds: number;
    clock?: () => number;
  },
): Promise<void> => {
  const received = clock();
  // Counted as Lambda's event source mapping is billed: the receive that returned the batch
  // (empty polls are each queue's fixed cost), one invocation, one batch delete.
  if (counters)
    counters.queueReceiveRequests += sqsRequests(messages.reduce((n, m) => n + Buffer.byteLength(m.Body ?? ''), 0));
  const event: SQSEvent = {
    Records: messages.map((m) => ({
      messageId: m.MessageId ?? randomUUID(),
      receiptHandle: m.ReceiptHandle ?? '',
      body: m.Body ?? '',
      attributes: (m.Attributes ?? {}) as any,
      messageAttributes: Object.fromEntries(
        Object.entries(m.MessageAttributes ?? {}).map(([k, a]) => [
          k,
          { stringValue: a.StringValue, dataType: a.DataType ?? 'String', stringListValues: [], binaryListValues: [] },
        ]),
      ),
      md5OfBody: m.MD5OfBody ?? '',
      eventSource: 'aws:sqs',
      eventSourceARN: `arn:aws:sqs:local:000000000000:${worker.queue}`,
      awsRegion: 'local',
    })),
  };
  let failed = new Set<string>();
  const started = performance.now();
  try {
    const result = await countedAs.run(worker.name, () => handler(event, lambdaContext(worker.name, 60_000)));
    failed = new Set((result?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
  } catch (error) {
    console.error(`worker ${worker.name} failed; its batch will be retried`, error);
    failed = new Set(event.Records.map((r) => r.messageId));
  }
  if (counters) {
    countInvocation(counters, performance.now() - started);
    if (failed.size < messages.length) counters.queueDeleteRequests += 1;
  }
  // As Lambda's event source mapping does: one batch delete for what was handled, and what failed
  // left to the queue, to come back when its visibility runs out (the local queue may hide a
  // message longer while its worker runs: the hold is set to what is left of the visibility).
  const handled = messages.filter((m) => !failed.has(m.MessageId ?? ''));
  const back = messages.filter((m) => failed.has(m.MessageId ?? ''));
  const entries = (list: readonly Message[]) => list.map((m, i) => ({ Id: String(i), ReceiptHandle: m.ReceiptHandle }));
  if (handled.length > 0)
    await sqs
      .send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries(handled) }))
      .catch(() => undefined);
  if (back.length > 0) {
    const hold = failedRecordHoldSeconds(visibilitySeconds, clock() - received);
    await sqs
      .send(
        new ChangeMessageVisibilityBatchCommand({
          QueueUrl: queueUrl,
          Entries: entries(back).map((e) => ({ ...e, VisibilityTimeout: hold })),
        }),
      )
      .catch(() => undefined);
  }
};

/** Runs every timer of the manifest on its interval. */
export const startTimers = (functionsDir: string, counters?: AdapterCounters): Loop => {
  const handles = TIMERS.map((timer) => {
    const run = async () => {
      const started = performance.now();
      try {
        const handler = await load<(e: unknown, c: unknown) => Promise<unknown>>(functionsDir, timer.entry);
        await countedAs.run(timer.name, () =>
          handler(
            { source: 'local.timer', 'detail-type': 'Scheduled Event', time: new Date().toISOString() },
            lambdaContext(timer.name, 60_000),
          ),
        );
      } catch (error) {
        console.error(`timer ${timer.name} failed`, error);
      }
      if (counters) countInvocation(counters, performance.now() - started);
    };
    return setInterval(run, timer.everyMinutes * 60_000);
  });
  return { stop: async () => handles.forEach(clearInterval) };
};

/**
 * The local scheduler's timer loop: sends each schedule to its queue once its firing instant has
 * come (anywhere inside the minute of its `at`, as EventBridge Scheduler fires), then removes it.
 */
export const startSchedulerLoop = <T extends ScheduleRequest>(
  scheduler: { takeDue(now: number): Promise<T[]>; done(r: T): Promise<void> },
  send: (queueUrl: string, body: unknown) => Promise<void>,
  intervalMs = 250,
): Loop => {
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        for (const due of await scheduler.takeDue(Date.now())) {
          await send(due.queueUrl, due.body);
          await scheduler.done(due);
        }
      } catch (error) {
        if (running) console.error('local scheduler failed', error);
      }
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
    },
  };
};
