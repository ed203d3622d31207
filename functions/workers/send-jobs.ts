import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { flushMetrics, getDeps } from '@mailstack/core/runtime/deps';
import { deliverEmail } from '@mailstack/core/domain/emails/pipeline/deliver-email';
import { CORRELATION_ATTRIBUTE } from '@mailstack/core/adapters/aws/sqs-queue';
import type { SendJob } from '@mailstack/core/domain/emails/email';

/**
 * Runs a batch of send jobs from one queue (transactional or broadcast): each to deliverEmail; a
 * retry goes back on the same queue with its delay; a failed job stays on the queue (reported as
 * a batch item failure).
 */
export const runSendJobs = async (
  event: SQSEvent,
  queueUrl: (config: ReturnType<typeof getDeps>['config']) => string,
): Promise<SQSBatchResponse> => {
  const deps = getDeps();
  const failures: { itemIdentifier: string }[] = [];
  await Promise.all(
    event.Records.map(async (record) => {
      // Each record logs under the request that accepted its email (the correlation id) and its email id.
      let logger = deps.logger;
      try {
        const job = JSON.parse(record.body) as SendJob;
        const correlation = record.messageAttributes?.[CORRELATION_ATTRIBUTE]?.stringValue;
        logger = deps.logger.createChild({
          persistentKeys: {
            email_id: job.emailId,
            team_id: job.teamId,
            ...(correlation ? { correlation_id: correlation } : {}),
          },
        });
        const outcome = await deliverEmail({ ...deps, logger }, job);
        if (outcome.kind === 'retry')
          await deps.queue.send(queueUrl(deps.config), [{ body: outcome.job, delaySeconds: outcome.delaySeconds }]);
      } catch (error) {
        logger.error('send job failed; it stays on the queue', error as Error);
        failures.push({ itemIdentifier: record.messageId });
      }
    }),
  );
  flushMetrics(deps);
  return { batchItemFailures: failures };
};
