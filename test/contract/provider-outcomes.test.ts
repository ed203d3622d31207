import { randomUUID } from 'node:crypto';
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { local } from '../support/local.ts';
import { eventsOf } from '../support/events.ts';
import { sendingTeam } from '../support/sending.ts';
import { emailReaches, waitFor } from '../support/wait.ts';

/** The events stored for one email, by type. */
const eventTypes = async (teamId: string, emailId: string) =>
  (await eventsOf(teamId)).filter((e) => e.data?.email_id === emailId);

/** Waits until the provider-events queue holds nothing, in flight or waiting: every event SES published was handled. */
const providerEventsHandled = () => {
  const sqs = new SQSClient({
    region: 'us-east-1',
    endpoint: local().env.SQS_ENDPOINT,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  return waitFor(
    async () =>
      (
        await sqs.send(
          new GetQueueAttributesCommand({
            QueueUrl: local().queueUrls['provider-events'],
            AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
          }),
        )
      ).Attributes ?? {},
    (a) => a.ApproximateNumberOfMessages === '0' && a.ApproximateNumberOfMessagesNotVisible === '0',
    { what: 'the provider-events queue drained' },
  );
};

describe('what SES publishes after it accepted an email', () => {
  it('a soft bounce (published once SES gave up) is final: bounced with type Transient, the address not suppressed', async () => {
    // Prepare
    const t = await sendingTeam();
    const subject = `Soft ${randomUUID().slice(0, 8)}`;

    // Act
    const soft = await t.resend.emails.send({
      from: t.from,
      to: 'soft-bounce@simulator.localhost',
      subject,
      text: 'x',
    });
    const delayed = await t.resend.emails.send({ from: t.from, to: 'delayed@simulator.localhost', subject, text: 'x' });
    const rejected = await t.resend.emails.send({
      from: t.from,
      to: 'rejected@simulator.localhost',
      subject,
      text: 'x',
    });

    // Assess
    expect((await emailReaches(t.resend, soft.data!.id, ['bounced'])).last_event).toBe('bounced');
    expect((await emailReaches(t.resend, delayed.data!.id, ['delivered'])).last_event).toBe('delivered');
    expect((await emailReaches(t.resend, rejected.data!.id, ['failed'])).last_event).toBe('failed');
    const bounced = (await eventTypes(t.team.id, soft.data!.id)).filter((e) => e.type === 'email.bounced');
    expect(bounced).toHaveLength(1);
    expect(bounced[0]!.data.bounce).toMatchObject({ type: 'Transient', subType: 'MailboxFull' });
    // A soft bounce suppresses nothing: the next send to the address is accepted.
    const again = await t.resend.emails.send({
      from: t.from,
      to: 'soft-bounce@simulator.localhost',
      subject,
      text: 'y',
    });
    expect(again.error).toBeNull();
  }, 90_000);

  it('events delivered twice and out of order (SNS to SQS) leave one event per status and the right final state', async () => {
    // Prepare: a recipient whose message's events come twice, in reverse (Bounce, DeliveryDelay, Send, and again).
    const t = await sendingTeam();
    const subject = `Twice ${randomUUID().slice(0, 8)}`;

    // Act
    const sent = await t.resend.emails.send({
      from: t.from,
      to: 'soft-bounce+unordered-twice@simulator.localhost',
      subject,
      text: 'x',
    });
    await emailReaches(t.resend, sent.data!.id, ['bounced']);
    await providerEventsHandled();

    // Assess: bounced, never moved back; each status change recorded once.
    const email = await t.resend.emails.get(sent.data!.id);
    const types = (await eventTypes(t.team.id, sent.data!.id)).map((e) => e.type);
    expect(email.data?.last_event).toBe('bounced');
    expect(types.filter((x) => x === 'email.bounced')).toHaveLength(1);
    expect(types.filter((x) => x === 'email.sent').length).toBeLessThanOrEqual(1);
    expect(new Set(types).size).toBe(types.length);
    expect(types).not.toContain('email.delivery_delayed');
  }, 90_000);
});
