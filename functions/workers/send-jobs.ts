import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { flushMetrics, getDeps } from '@mailstack/core/runtime/deps';
import { deliverEmail } from '@mailstack/core/domain/emails/pipeline/deliver-email';
import { CORRELATION_ATTRIBUTE } from '@mailstack/core/adapters/aws/sqs-queue';
import type { SendJob } from '@mailstack/core/domain/emails/email';
import type { QueueMessage } from '@mailstack/core/ports/queue';
import { batchGetEmails } from '@mailstack/core/domain/emails/email-content';

/**
 * Runs a batch of send jobs from one queue (transactional or broadcast): reads their emails (rows
 * and body items) in one batch read, then each to deliverEmail; a retry goes with its delay to
 * the queue `queueUrl` names (the later queue for transactional mail), the retries of the jobs
 * that settle together in one batch send; a failed job stays on the queue (reported as a batch
 * item failure).
 */
export const runSendJobs = async (
  event: SQSEvent,
  queueUrl: (config: ReturnType<typeof getDeps>['config']) => string,
): Promise<SQSBatchResponse> => {
  const deps = getDeps();
  const failures: { itemIdentifier: string }[] = [];
  const jobs = event.Records.map((record) => {
    try {
      return JSON.parse(record.body) as SendJob;
    } catch {
      return undefined;
    }
  });
  // One key each (a batch read refuses the same key twice: two jobs of one email in one batch).
  const wanted = new Map(jobs.filter((j) => j !== undefined).map((j) => [`${j.teamId}/${j.emailId}`, j]));
  const read = await batchGetEmails(deps, [...wanted.values()]).catch(() => undefined);
  const emails = new Map(read?.map((e) => [`${e.team_id}/${e.id}`, e]));
  const retry = sendTogether((list: QueueMessage[]) => deps.queue.send(queueUrl(deps.config), list));
  await Promise.all(
    event.Records.map(async (record, i) => {
      // Each record logs under the request that accepted its email (the correlation id) and its email id.
      let logger = deps.logger;
      try {
        const job = jobs[i];
        if (!job) throw new Error('the message is not a send job (not JSON)');
        const correlation = record.messageAttributes?.[CORRELATION_ATTRIBUTE]?.stringValue;
        logger = deps.logger.createChild({
          persistentKeys: {
            email_id: job.emailId,
            team_id: job.teamId,
            ...(correlation ? { correlation_id: correlation } : {}),
          },
        });
        const outcome = await deliverEmail(
          { ...deps, logger },
          job,
          read ? { email: emails.get(`${job.teamId}/${job.emailId}`) } : undefined,
        );
        if (outcome.kind === 'retry') await retry({ body: outcome.job, delaySeconds: outcome.delaySeconds });
      } catch (error) {
        logger.error('send job failed; it stays on the queue', error as Error);
        failures.push({ itemIdentifier: record.messageId });
      }
    }),
  );
  flushMetrics(deps);
  return { batchItemFailures: failures };
};

/**
 * Messages handed in within one turn of the event loop (the jobs of a batch that settle together)
 * go out in one send; each caller learns whether its message went.
 */
const sendTogether = (send: (list: QueueMessage[]) => Promise<void>) => {
  let pending: { message: QueueMessage; done: (error?: unknown) => void }[] = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    send(batch.map((p) => p.message)).then(
      () => {
        for (const p of batch) p.done();
      },
      (error) => {
        for (const p of batch) p.done(error ?? new Error('queue send failed'));
      },
    );
  };
  return (message: QueueMessage): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (pending.length === 0) setImmediate(flush);
      pending.push({ message, done: (error) => (error === undefined ? resolve() : reject(error)) });
    });
};
