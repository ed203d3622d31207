import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { getDeps } from '@mailstack/core/runtime/deps';
import { writeRequestLogs } from '@mailstack/core/domain/logs/write-request-logs';
import type { LogMessage } from '@mailstack/core/domain/logs/request-log';

/** The request-log recorder: writes the batch's logs (GET /logs); a failed batch comes back whole (a row written twice is the same row). */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const deps = getDeps();
  try {
    await writeRequestLogs(
      deps,
      event.Records.map((r) => JSON.parse(r.body) as LogMessage),
    );
    return { batchItemFailures: [] };
  } catch (error) {
    deps.logger.error('request logs not written; the batch stays on the queue', error as Error);
    return { batchItemFailures: event.Records.map((r) => ({ itemIdentifier: r.messageId })) };
  }
};
