import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { flushMetrics, getDeps } from '@mailstack/core/runtime/deps';
import {
  ProviderEventRefused,
  receiveProviderNotification,
} from '@mailstack/core/domain/emails/pipeline/receive-provider-events';

/**
 * The provider-events worker: SES events, through the service's SNS topic and its queue, applied
 * to their emails. A record that fails stays on the queue and, after five tries, waits in the
 * dead-letter queue: no event is lost while the service is down, and a malformed or foreign one
 * is refused (its reason logged) without recording anything.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const deps = getDeps();
  const failures: { itemIdentifier: string }[] = [];
  for (const record of event.Records) {
    try {
      await receiveProviderNotification(deps, record.body);
    } catch (error) {
      if (error instanceof ProviderEventRefused)
        deps.logger.error('provider event refused; it ends in the dead-letter queue', {
          reason: error.reason,
          error,
          message_id: record.messageId,
        });
      else
        deps.logger.error('provider event not applied; it stays on the queue', {
          error: error as Error,
          message_id: record.messageId,
        });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  flushMetrics(deps);
  return { batchItemFailures: failures };
};
