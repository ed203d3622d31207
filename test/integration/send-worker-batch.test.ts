import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import type { SQSEvent } from 'aws-lambda';
import { createDeps, setDeps, type Deps } from '@mailstack/core/runtime/deps';
import type { QueueMessage } from '@mailstack/core/ports/queue';
import type { SendJob } from '@mailstack/core/domain/emails/email';
import { prepareEmail } from '@mailstack/core/domain/emails/prepare-email';
import { acceptEmails } from '@mailstack/core/domain/emails/accept-emails';
import { callerOfKey } from '@mailstack/core/domain/caller';
import { handler } from '../../functions/workers/send-email.worker.ts';
import { testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';

afterEach(() => setDeps(undefined));

const records = (jobs: readonly SendJob[]): SQSEvent => ({
  Records: jobs.map((job) => ({
    messageId: randomUUID(),
    receiptHandle: 'r',
    body: JSON.stringify(job),
    attributes: {} as never,
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:local:000000000000:send',
    awsRegion: 'local',
  })),
});

describe('the send worker on a batch', () => {
  it('reads the batch’s emails in one batch read and sends the jobs booked ahead to the later queue together, in one send', async () => {
    const base = testDeps();
    const t = await sendingTeam();
    const sends: { url: string; messages: readonly QueueMessage[] }[] = [];
    const reads = { batchGet: 0 };
    const deps: Deps = createDeps(
      {
        ...base.config,
        // One place a second: of ten jobs at once, those after the first three are booked past the worker's 2 s wait.
        PROVIDER_RATE_PER_SECOND: 1,
        SEND_QUEUE_URL: 'send-queue',
        SEND_LATER_QUEUE_URL: 'later-queue',
      },
      {
        queue: {
          send: async (url, messages) => {
            sends.push({ url, messages });
          },
        },
        mail: { send: async () => ({ providerMessageId: `batch-${randomUUID()}` }) },
        tableStore: {
          ...base.tableStore,
          batchGet: (input) => {
            reads.batchGet++;
            return base.tableStore.batchGet(input);
          },
        },
      },
    );
    const caller = callerOfKey(t.key, t.team);
    const region = `batch-${randomUUID()}`;
    const jobs: SendJob[] = [];
    for (let i = 0; i < 10; i++) {
      const prepared = await prepareEmail(deps, caller, {
        from: t.from,
        to: 'delivered@resend.dev',
        subject: `b${i}`,
        text: 'x',
      });
      const [e] = await acceptEmails(deps, caller, [{ ...prepared, domain: { ...prepared.domain, region } }]);
      jobs.push({ teamId: t.team.id, emailId: e!.id });
    }
    sends.length = 0;
    const before = { ...reads };
    setDeps(deps);
    const out = await handler(records(jobs));
    expect(out.batchItemFailures).toEqual([]);
    // One batch read for the ten emails.
    expect(reads.batchGet - before.batchGet).toBe(1);
    // The jobs booked ahead went back together, to the later queue, each with its place and delay.
    const back = sends.filter((s) => s.url === 'later-queue');
    expect(sends.filter((s) => s.url === 'send-queue')).toEqual([]);
    expect(back).toHaveLength(1);
    expect(back[0]!.messages.length).toBeGreaterThanOrEqual(6);
    for (const m of back[0]!.messages) {
      expect((m.body as SendJob).place).toBeTypeOf('number');
      expect(m.delaySeconds).toBeGreaterThanOrEqual(1);
    }
  });
});
