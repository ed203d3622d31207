import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { getDeps } from '@mailstack/core/runtime/deps';
import { fanOutBroadcast, type FanOutJob } from '@mailstack/core/domain/broadcasts/fan-out';

/** The broadcast fan-out worker: one step of a broadcast's fan-out per message. */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const deps = getDeps();
  const failures: { itemIdentifier: string }[] = [];
  for (const record of event.Records) {
    try {
      await fanOutBroadcast(deps, JSON.parse(record.body) as FanOutJob);
    } catch (error) {
      deps.logger.error('broadcast fan-out step failed; it resumes from its checkpoint', error as Error);
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  return { batchItemFailures: failures };
};
