import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { getDeps } from '@mailstack/core/runtime/deps';
import { runEraseJob, type EraseJobRef } from '@mailstack/core/domain/contacts/erase-history';

/** The erase worker: rewrites a team's history in pages; a job with history left goes back on the queue. */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const deps = getDeps();
  const failures: { itemIdentifier: string }[] = [];
  for (const record of event.Records) {
    try {
      const job = JSON.parse(record.body) as EraseJobRef;
      if ((await runEraseJob(deps, job)) === 'more')
        await deps.queue.send(deps.config.ERASE_QUEUE_URL, [{ body: job }]);
    } catch (error) {
      deps.logger.error('erase job failed; it stays on the queue and resumes from its last page', error as Error);
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
};
