import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { getDeps } from '@mailstack/core/runtime/deps';
import { deliverWebhook, type DeliveryJob } from '@mailstack/core/domain/webhooks/deliver';
import { ownerNotices } from '@mailstack/core/domain/webhooks/owner-notices';

/**
 * The webhook delivery worker: one attempt per due job, within the endpoint's limits. A job
 * whose endpoint is busy goes back on the queue; a job that throws stays on it (at-least-once).
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const deps = getDeps();
  const failures: { itemIdentifier: string }[] = [];
  await Promise.all(
    event.Records.map(async (record) => {
      try {
        const job = JSON.parse(record.body) as DeliveryJob;
        const outcome = await deliverWebhook(deps, job, ownerNotices);
        if (outcome.kind === 'later')
          await deps.queue.send(deps.config.WEBHOOK_QUEUE_URL, [
            { body: outcome.job, delaySeconds: outcome.delaySeconds },
          ]);
      } catch (error) {
        deps.logger.error('webhook delivery failed; the job stays on the queue', error as Error);
        failures.push({ itemIdentifier: record.messageId });
      }
    }),
  );
  return { batchItemFailures: failures };
};
