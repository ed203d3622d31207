import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { JobQueue } from '../../ports/queue.ts';
import { countFor, sqsRequests, type AdapterCounters } from './counters.ts';

/** The message attribute that carries the correlation id (the API request id) to the workers. */
export const CORRELATION_ATTRIBUTE = 'correlation_id';

/** Batch requests of one send in flight at once. */
const SEND_CONCURRENCY = 8;

/** SQS queues; messages go out in batches of ten (up to eight requests at once) and a partial failure throws. */
export const sqsQueue = (
  sqs: SQSClient,
  counters: AdapterCounters,
  correlationId: () => string | undefined = () => undefined,
): JobQueue => ({
  async send(queueUrl, messages) {
    const correlation = correlationId();
    const attributes = correlation
      ? { MessageAttributes: { [CORRELATION_ATTRIBUTE]: { DataType: 'String', StringValue: correlation } } }
      : {};
    const chunks: (typeof messages)[] = [];
    for (let i = 0; i < messages.length; i += 10) chunks.push(messages.slice(i, i + 10));
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(SEND_CONCURRENCY, chunks.length) }, async () => {
        while (next < chunks.length) {
          const chunk = chunks[next++]!;
          const entries = chunk.map((m, n) => ({
            Id: String(n),
            MessageBody: JSON.stringify(m.body),
            ...attributes,
            ...(m.delaySeconds ? { DelaySeconds: Math.min(900, Math.max(0, Math.floor(m.delaySeconds))) } : {}),
          }));
          const out = await sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
          counters.queueMessages += chunk.length;
          countFor(counters, { queueMessages: chunk.length });
          // SQS bills a batch as one request per started 64 KB of its payload (bodies and attributes).
          counters.queueRequests += sqsRequests(
            entries.reduce(
              (n, e) =>
                n +
                Buffer.byteLength(e.MessageBody) +
                (correlation ? CORRELATION_ATTRIBUTE.length + 6 + correlation.length : 0),
              0,
            ),
          );
          if (out.Failed && out.Failed.length > 0) {
            throw new Error(
              `queue refused ${out.Failed.length} message(s): ${out.Failed.map((f) => f.Message).join('; ')}`,
            );
          }
        }
      }),
    );
  },
});
