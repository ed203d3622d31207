import { describe, expect, it } from 'vitest';
import { CreateQueueCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { randomUUID } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import { createDeps } from '@mailstack/core/runtime/deps';
import { readConfig } from '@mailstack/core/runtime/config';
import { CORRELATION_ATTRIBUTE } from '@mailstack/core/adapters/aws/sqs-queue';
import { createClients } from '@mailstack/core/adapters/aws/clients';
import { newCounters } from '@mailstack/core/adapters/aws/counters';
import { local } from '../support/local.ts';

describe('correlation ids', () => {
  it('carry the API request id on every queued message, for the worker to log under', async () => {
    const logger = new Logger({ serviceName: 'test', logLevel: 'ERROR' });
    const deps = createDeps(readConfig(local().env), { logger });
    // A client of the test's own, to make the queue and read what the queue port sent.
    const { sqs } = createClients(deps.config, newCounters());
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: `correlation-${randomUUID()}` }));
    logger.setCorrelationId('request-123');
    await deps.queue.send(QueueUrl!, [{ body: { emailId: 'e1' } }]);
    logger.resetKeys();
    await deps.queue.send(QueueUrl!, [{ body: { emailId: 'e2' } }]);
    const out = await sqs.send(
      new ReceiveMessageCommand({
        QueueUrl,
        MaxNumberOfMessages: 10,
        MessageAttributeNames: ['All'],
        WaitTimeSeconds: 1,
      }),
    );
    const byEmail = Object.fromEntries(
      (out.Messages ?? []).map((m) => [
        JSON.parse(m.Body!).emailId,
        m.MessageAttributes?.[CORRELATION_ATTRIBUTE]?.StringValue,
      ]),
    );
    expect(byEmail).toEqual({ e1: 'request-123', e2: undefined });
  });
});
