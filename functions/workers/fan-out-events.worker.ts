import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { getDeps } from '@mailstack/core/runtime/deps';
import { fanOutEvents } from '@mailstack/core/domain/webhooks/fan-out-events';
import type { EventMessage } from '@mailstack/core/domain/webhooks/deliver';

/**
 * The webhook dispatcher: each recorded event to a delivery per subscribed endpoint (each team's
 * endpoints read once per batch). A failed batch stays on the queue; repeating it is harmless.
 */
export const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const deps = getDeps();
  try {
    await fanOutEvents(
      deps,
      event.Records.map((r) => JSON.parse(r.body) as EventMessage),
    );
    return { batchItemFailures: [] };
  } catch (error) {
    deps.logger.error('event fan-out failed; the batch stays on the queue', error as Error);
    return { batchItemFailures: event.Records.map((r) => ({ itemIdentifier: r.messageId })) };
  }
};
