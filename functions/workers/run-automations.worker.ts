import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { getDeps } from '@mailstack/core/runtime/deps';
import { runAutomationJob } from '@mailstack/core/domain/automations/engine';
import type { AutomationJob } from '@mailstack/core/domain/automations/jobs';

/** The automations worker: sent events start and resume runs; each step of a run is one job. A failed job comes back (SQS redelivery). */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const deps = getDeps();
  const failures: { itemIdentifier: string }[] = [];
  for (const record of event.Records) {
    try {
      await runAutomationJob(deps, JSON.parse(record.body) as AutomationJob);
    } catch (error) {
      deps.logger.error('automation job failed; it stays on the queue and runs again', error as Error);
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
};
