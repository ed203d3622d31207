import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { getDeps } from '@mailstack/core/runtime/deps';
import { deliverEmail } from '@mailstack/core/domain/emails/pipeline/deliver-email';
import type { SendJob } from '@mailstack/core/domain/emails/email';

/** The send worker: each SendJob to the provider; retries go back on the queue with a delay. */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const deps = getDeps();
  const failures: { itemIdentifier: string }[] = [];
  await Promise.all(event.Records.map(async (record) => {
    try {
      const job = JSON.parse(record.body) as SendJob;
      const outcome = await deliverEmail(deps, job);
      if (outcome.kind === 'retry') await deps.queue.send(deps.config.SEND_QUEUE_URL, [{ body: job, delaySeconds: outcome.delaySeconds }]);
    } catch (error) {
      deps.logger.error('send job failed; it stays on the queue', error as Error);
      failures.push({ itemIdentifier: record.messageId });
    }
  }));
  return { batchItemFailures: failures };
};
