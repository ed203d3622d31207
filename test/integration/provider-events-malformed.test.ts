import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SQSEvent } from 'aws-lambda';
import { createDeps, setDeps } from '@mailstack/core/runtime/deps';
import { handler } from '../../functions/workers/receive-provider-events.worker.ts';
import { local, testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { emailReaches } from '../support/wait.ts';

/**
 * Provider events arrive SES → SNS → the provider-events queue → its worker. Malformed SNS
 * messages on that path (the examples: an envelope without its SubscribeURL, a Message of
 * "{}", a body that is not JSON) are refused cleanly: the worker returns them as failures (so
 * they end in the dead-letter queue after their retries), logs why, never throws, and records
 * nothing, while a well-formed event in the same batch is applied.
 */

const sqsEvent = (bodies: string[]): SQSEvent => ({
  Records: bodies.map((body) => ({
    messageId: randomUUID(),
    receiptHandle: 'r',
    body,
    attributes: { ApproximateReceiveCount: '1' } as any,
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:provider-events',
    awsRegion: 'us-east-1',
  })),
});

/** Log lines the worker writes, captured (the logger's own methods, spied on). */
const captureLogs = () => {
  const lines: { level: string; message: string; attrs: any }[] = [];
  const deps = createDeps(testDeps().config);
  for (const level of ['error', 'warn', 'info'] as const) {
    vi.spyOn(deps.logger, level).mockImplementation(((message: string, attrs?: unknown) => {
      lines.push({ level, message, attrs });
    }) as any);
  }
  setDeps(deps);
  return lines;
};

afterEach(() => {
  setDeps(undefined);
  vi.restoreAllMocks();
});

describe('malformed SNS messages on the provider-events queue', () => {
  it('are refused with a logged reason, never crash the worker, and record nothing; a well-formed bounce in the same batch is applied', async () => {
    // Prepare: a delivered email, and a hard bounce for it (as SES would publish it).
    const t = await sendingTeam();
    const to = `reader-${randomUUID().slice(0, 8)}@example.com`;
    const sent = await t.resend.emails.send({ from: t.from, to, subject: 'Malformed events', text: 'x' });
    const id = sent.data!.id;
    expect((await emailReaches(t.resend, id, ['delivered'], 30_000)).last_event).toBe('delivered');
    const topic = local().env.SES_EVENTS_TOPIC_ARN!;
    const bounce = JSON.stringify({
      eventType: 'Bounce',
      mail: { messageId: `p-${randomUUID()}`, tags: { team_id: [t.team.id], email_id: [id] } },
      bounce: {
        bounceType: 'Permanent',
        bounceSubType: 'General',
        bouncedRecipients: [{ emailAddress: to, diagnosticCode: 'smtp; 550 no such user' }],
      },
    });
    const envelope = (fields: Record<string, unknown>) =>
      JSON.stringify({ MessageId: randomUUID(), TopicArn: topic, Timestamp: new Date().toISOString(), ...fields });
    const malformed = {
      'a SubscriptionConfirmation without its SubscribeURL (carrying the bounce)': envelope({
        Type: 'SubscriptionConfirmation',
        Message: bounce,
        Token: 'x',
      }),
      'a Notification whose Message is "{}"': envelope({ Type: 'Notification', Message: '{}' }),
      'a Notification whose Message is not JSON': envelope({ Type: 'Notification', Message: 'not json {' }),
      'a Notification without a Message': envelope({ Type: 'Notification' }),
      'a body that is not JSON': '{"Type": "Notification", ',
      'a body that is a JSON array': '[]',
      'an envelope of an unknown Type (carrying the bounce)': envelope({ Type: 'Surprise', Message: bounce }),
    };
    const logs = captureLogs();

    // Act: the malformed messages alone, then again with the well-formed bounce last.
    const event = sqsEvent(Object.values(malformed));
    const result = await handler(event);

    // Assess: each is a failure of its own (dead-letter queue after retries), with a logged reason, and nothing moved.
    expect(result.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(event.Records.map((r) => r.messageId));
    const refusals = logs.filter((l) => l.message.startsWith('provider event refused'));
    expect(refusals.map((l) => l.attrs.message_id)).toEqual(event.Records.map((r) => r.messageId));
    expect(refusals.map((l) => l.attrs.reason)).toEqual([
      'malformed_envelope',
      'not_an_ses_event',
      'not_an_ses_event',
      'malformed_envelope',
      'malformed_envelope',
      'malformed_envelope',
      'malformed_envelope',
    ]);
    expect((await t.resend.emails.get(id)).data?.last_event).toBe('delivered');
    expect((await t.resend.emails.list()).data!.data.find((e) => e.id === id)?.last_event).toBe('delivered');

    const withControl = sqsEvent([...Object.values(malformed), envelope({ Type: 'Notification', Message: bounce })]);
    const second = await handler(withControl);
    expect(
      second.batchItemFailures,
      JSON.stringify(logs.slice(-1).map((l) => [l.message, String(l.attrs?.error?.message ?? l.attrs?.error)])),
    ).toHaveLength(Object.keys(malformed).length);
    expect(second.batchItemFailures.map((f) => f.itemIdentifier)).not.toContain(withControl.Records.at(-1)!.messageId);
    expect((await t.resend.emails.get(id)).data?.last_event).toBe('bounced');
  }, 60_000);

  it('drops a well-formed subscription confirmation with a log line (nothing to apply, nothing recorded)', async () => {
    const logs = captureLogs();
    const body = JSON.stringify({
      Type: 'SubscriptionConfirmation',
      MessageId: randomUUID(),
      TopicArn: local().env.SES_EVENTS_TOPIC_ARN!,
      Message: 'You have chosen to subscribe',
      SubscribeURL: 'https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription',
      Token: 't',
    });
    const result = await handler(sqsEvent([body]));
    expect(result.batchItemFailures).toEqual([]);
    expect(
      logs.some(
        (l) => l.message.startsWith('provider message ignored') && l.attrs.sns_type === 'SubscriptionConfirmation',
      ),
    ).toBe(true);
  });

  it('acknowledges and ignores the plain-text topic validation SES publishes to a new destination (no dead letter, no alarm)', async () => {
    // Prepare: the notification as SNS delivers it to the queue (captured in ope-tech/laravel-ses#10).
    const logs = captureLogs();
    const body = JSON.stringify({
      Type: 'Notification',
      MessageId: randomUUID(),
      TopicArn: local().env.SES_EVENTS_TOPIC_ARN!,
      Message: 'Successfully validated SNS topic for Amazon SES event publishing.',
      Timestamp: new Date().toISOString(),
      SignatureVersion: '1',
    });

    // Act
    const result = await handler(sqsEvent([body]));

    // Assess: acknowledged (not returned for a retry that ends in the dead-letter queue), logged, nothing refused.
    expect(result.batchItemFailures).toEqual([]);
    expect(logs.some((l) => l.message.startsWith('provider event refused'))).toBe(false);
    expect(logs.some((l) => l.message.includes('topic validation'))).toBe(true);
  });
});
