import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { JobQueue } from '../../ports/queue.ts';
import type { AdapterCounters } from './counters.ts';

/** SQS queues; messages go out in batches of ten and a partial failure throws. */
export const sqsQueue = (sqs: SQSClient, counters: AdapterCounters): JobQueue => ({
  async send(queueUrl, messages) {
    for (let i = 0; i < messages.length; i += 10) {
      const chunk = messages.slice(i, i + 10);
      const out = await sqs.send(new SendMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: chunk.map((m, n) => ({
          Id: String(n),
          MessageBody: JSON.stringify(m.body),
          ...(m.delaySeconds ? { DelaySeconds: Math.min(900, Math.max(0, Math.floor(m.delaySeconds))) } : {}),
        })),
      }));
      counters.queueMessages += chunk.length;
      if (out.Failed && out.Failed.length > 0) {
        throw new Error(`queue refused ${out.Failed.length} message(s): ${out.Failed.map((f) => f.Message).join('; ')}`);
      }
    }
  },
});
