import { describe, expect, it } from 'vitest';
import { keys } from '@mailstack/core/table/keys';
import { getItem } from '@mailstack/core/table/ops';
import { getEmail } from '@mailstack/core/domain/emails/get-email';
import { teamDayCounts } from '@mailstack/core/domain/deliverability/guardrail';
import { local, testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { waitFor } from '../support/wait.ts';
import { eventsOf } from '../support/events.ts';

const today = () => new Date().toISOString().slice(0, 10);
const seed = async (teamId: string, counts: { sent: number; bounced: number; complained?: number }) => {
  const d = testDeps();
  await d.tableStore.put({
    TableName: d.table,
    Item: { ...keys.deliverability.day(teamId, today(), 0), complained: 0, ...counts },
  });
};

const waitForEvent = async (teamId: string, type: string) =>
  (
    await waitFor(
      () => eventsOf(teamId),
      (events) => events.some((e) => e.type === type),
      { what: `a ${type} event`, timeoutMs: 15_000 },
    )
  ).find((e) => e.type === type)!;

describe('the deliverability guardrail', () => {
  it('pauses a team whose hard-bounce rate crosses the line, refusing sends with sending_paused until it recovers', async () => {
    const t = await sendingTeam();
    // 4 bounces of 100 emails: 4%, the default pause line, well before SES's review at 5%.
    await seed(t.team.id, { sent: 99, bounced: 3 });
    const bounce = await t.resend.emails.send({ from: t.from, to: 'bounced@resend.dev', subject: 'x', text: 'x' });
    expect(bounce.error).toBeNull();
    const paused = await waitForEvent(t.team.id, 'deliverability.paused');
    expect(paused.data).toMatchObject({
      metric: 'bounce_rate',
      limit: 0.04,
      window_days: 7,
      dashboard_url: `${local().dashboardUrl}/t/${t.team.id}/#deliverability`,
    });
    const refused = await t.resend.emails.send({ from: t.from, to: 'someone@example.com', subject: 'x', text: 'x' });
    expect(refused.error).toMatchObject({ statusCode: 403, name: 'sending_paused' });
    expect(refused.error!.message).toMatch(/bounce rate.*7 days.*4\.00%/);
    await seed(t.team.id, { sent: 1000, bounced: 11 });
    expect(
      (await t.resend.emails.send({ from: t.from, to: 'someone@example.com', subject: 'x', text: 'x' })).error,
    ).toBeNull();
  }, 30_000);

  it('warns once when the complaint rate crosses the risk line, below the pause line', async () => {
    const t = await sendingTeam();
    // 6 complaints in 10,000 emails: 0.06%, past the 0.05% warning and under the 0.08% pause (SES reviews at 0.1%).
    await seed(t.team.id, { sent: 10_000, bounced: 0, complained: 5 });
    await t.resend.emails.send({ from: t.from, to: 'complained@resend.dev', subject: 'x', text: 'x' });
    const warning = await waitForEvent(t.team.id, 'deliverability.warning');
    expect(warning.data).toMatchObject({ metric: 'complaint_rate', limit: 0.0005, window_days: 7 });
    expect(
      (await t.resend.emails.send({ from: t.from, to: 'someone@example.com', subject: 'x', text: 'x' })).error,
    ).toBeNull();
  }, 30_000);

  it('pauses nobody under the least volume: one bounce of three emails', async () => {
    const t = await sendingTeam();
    await seed(t.team.id, { sent: 2, bounced: 0 });
    const bounce = await t.resend.emails.send({ from: t.from, to: 'bounced@resend.dev', subject: 'x', text: 'x' });
    await waitFor(
      () => getEmail(testDeps(), t.team.id, bounce.data!.id),
      (e) => e.status === 'bounced',
      { what: 'the bounce', timeoutMs: 15_000 },
    );
    // The bounce is counted (1 of 3, 33%), and the team sends on: 3 emails are no measure.
    await waitFor(
      () => teamDayCounts(testDeps(), t.team.id, today()),
      (day) => Number(day?.bounced) === 1 && Number(day?.sent) === 3,
      { what: "the bounce in the team's day count", timeoutMs: 15_000 },
    );
    expect((await getItem(testDeps(), keys.team.item(t.team.id)))?.sending_paused ?? null).toBeNull();
    expect(
      (await t.resend.emails.send({ from: t.from, to: 'someone@example.com', subject: 'x', text: 'x' })).error,
    ).toBeNull();
    expect((await eventsOf(t.team.id)).map((e) => e.type)).not.toContain('deliverability.paused');
  }, 30_000);
});

describe('provider events for the guardrail', () => {
  it('counts a replayed bounce notification once', async () => {
    const t = await sendingTeam();
    const d = testDeps();
    const sent = await t.resend.emails.send({ from: t.from, to: 'someone@example.com', subject: 'Replay', text: 'x' });
    const id = sent.data!.id;
    const email = await waitFor(
      () => getEmail(d, t.team.id, id),
      (e) => e.status === 'delivered',
      { what: 'delivery', timeoutMs: 15_000 },
    );
    const before = (await teamDayCounts(d, t.team.id, today())).bounced;
    const bounce = {
      eventType: 'Bounce',
      mail: { messageId: email.provider_message_id, tags: { team_id: [t.team.id], email_id: [id] } },
      bounce: {
        bounceType: 'Permanent',
        bounceSubType: 'General',
        bouncedRecipients: [{ emailAddress: 'someone@example.com' }],
      },
    };
    // The same notification delivered three times, as SNS and SQS may deliver it (at least once).
    const envelope = {
      Type: 'Notification',
      MessageId: 'replayed-1',
      TopicArn: d.config.SES_EVENTS_TOPIC_ARN,
      Message: JSON.stringify(bounce),
      Timestamp: new Date().toISOString(),
      SignatureVersion: '1',
    };
    await d.queue.send(
      d.config.PROVIDER_EVENTS_QUEUE_URL,
      [0, 1, 2].map(() => ({ body: envelope })),
    );
    await waitFor(
      () => getEmail(d, t.team.id, id),
      (e) => e.status === 'bounced',
      { what: 'the bounce', timeoutMs: 15_000 },
    );
    await new Promise((r) => setTimeout(r, 2_000));
    const after = (await teamDayCounts(d, t.team.id, today())).bounced;
    expect(after - before).toBe(1);
  }, 30_000);
});
