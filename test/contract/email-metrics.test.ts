import { describe, expect, it } from 'vitest';
import type { Resend } from 'resend';
import { TOO_SOON_MS } from '@mailstack/core/domain/tracking/classify';
import { getEmail } from '@mailstack/core/domain/emails/get-email';
import { testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { emailReaches, waitFor } from '../support/wait.ts';
import { inboxMail } from '../support/inbox.ts';
import { mailboxTeam, mx } from '../support/mailboxes.ts';

const HUMAN =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What the scripted mix below adds up to. */
const MIX = {
  sent: 5,
  delivered: 4,
  bounced: 1,
  bounced_permanent: 1,
  bounced_transient: 0,
  bounced_undetermined: 0,
  complained: 1,
  suppressed: 1,
  opened: 2,
  unique_opened: 1,
  clicked: 1,
  unique_clicked: 1,
  failed: 0,
  delivery_delayed: 0,
  delivery_rate: 80,
  open_rate: 25,
  click_rate: 25,
  bounce_rate: 20,
  complaint_rate: 25,
};

const totals = async (resend: Resend, options: Parameters<Resend['emails']['metrics']>[0] = {}) => {
  const out = await resend.emails.metrics(options);
  expect(out.error).toBeNull();
  return out.data!;
};

/**
 * A tracked team's scripted mix: two deliveries (one opened twice and clicked), a hard bounce, a
 * complaint (after its delivery), and a send whose second recipient is the bounced address, left
 * out as suppressed; the Delivery notification of one email is then delivered again.
 */
const scriptedMix = async () => {
  const t = await sendingTeam();
  await t.resend.domains.update({ id: t.domainId, openTracking: true, clickTracking: true });
  const send = async (to: string | string[], subject = `Metrics ${crypto.randomUUID()}`) => {
    const out = await t.resend.emails.send({
      from: t.from,
      to,
      subject,
      html: '<p><a href="https://example.com/a">A</a></p>',
    });
    expect(out.error).toBeNull();
    return { id: out.data!.id, subject };
  };
  const opened = await send('delivered@resend.dev');
  const plain = await send('delivered@resend.dev');
  const bounced = await send('bounced@resend.dev');
  const complained = await send('complained@resend.dev');
  await emailReaches(t.resend, bounced.id, ['bounced']);
  const partly = await send(['bounced@resend.dev', 'delivered@resend.dev']);
  await emailReaches(t.resend, opened.id, ['delivered']);
  await emailReaches(t.resend, plain.id, ['delivered']);
  await emailReaches(t.resend, complained.id, ['complained']);
  await emailReaches(t.resend, partly.id, ['delivered']);

  const html: string = (await inboxMail(opened.subject, 30_000)).body.html;
  const pixel = /<img src="([^"]+\/t\/o\/[^"]+)"/.exec(html)![1]!;
  const link = /href="([^"]+\/t\/c\/[^"]+)"/.exec(html)![1]!;
  await sleep(TOO_SOON_MS + 500);
  for (const url of [pixel, pixel, link])
    expect((await fetch(url, { headers: { 'user-agent': HUMAN }, redirect: 'manual' })).status).toBeLessThan(400);

  // At-least-once delivery: the same Delivery notification again moves and counts nothing.
  const d = testDeps();
  const email = await getEmail(d, t.team.id, plain.id);
  const delivery = {
    eventType: 'Delivery',
    mail: { messageId: email.provider_message_id, tags: { team_id: [t.team.id], email_id: [plain.id] } },
  };
  await d.queue.send(d.config.PROVIDER_EVENTS_QUEUE_URL, [
    {
      body: {
        Type: 'Notification',
        MessageId: crypto.randomUUID(),
        TopicArn: d.config.SES_EVENTS_TOPIC_ARN,
        Message: JSON.stringify(delivery),
        Timestamp: new Date().toISOString(),
        SignatureVersion: '1',
      },
    },
  ]);
  return { ...t, ids: { opened: opened.id, plain: plain.id } };
};

describe('GET /emails/metrics (resend.emails.metrics)', () => {
  it('counts a scripted mix of deliveries, a bounce, a complaint, a suppression, opens and clicks, once each', async () => {
    const t = await scriptedMix();
    const metrics = await waitFor(
      () => totals(t.resend),
      (m) => m.totals.clicked === 1 && m.totals.sent === 5,
      { what: 'the mix counted' },
    );
    await sleep(1_500);
    const settled = await totals(t.resend);
    expect(settled).toMatchObject({ object: 'metrics', dimensions: [], granularity: 'daily', totals: MIX });
    expect(settled.data).toBeUndefined();
    expect(settled.metrics).toHaveLength(22);
    expect(Date.parse(settled.end_date) - Date.parse(settled.start_date)).toBe(6 * 86_400_000);
    expect(metrics.totals.received).toBe(0);

    // By UTC day: every day of the range, the quiet ones as zeros; the days add up to the totals.
    const byDay = await totals(t.resend, { dimensions: ['period'], metrics: ['sent', 'delivered', 'opened'] });
    expect(byDay.data!.length).toBeGreaterThanOrEqual(7);
    expect(byDay.data!.every((r) => r.period!.endsWith('T00:00:00.000Z'))).toBe(true);
    expect(byDay.data!.reduce((n, r) => n + r.sent!, 0)).toBe(5);
    expect(Object.keys(byDay.totals).sort()).toEqual(['delivered', 'opened', 'sent']);

    // By domain: one row with the domain's id and name.
    const byDomain = await totals(t.resend, { dimensions: ['domain'], metrics: ['sent', 'bounced', 'clicked'] });
    expect(byDomain.data).toEqual([{ domain_id: t.domainId, domain_name: t.domain, sent: 5, bounced: 1, clicked: 1 }]);
    const filtered = await totals(t.resend, { domainId: [t.domainId], metrics: ['delivered'] });
    expect(filtered.totals).toEqual({ delivered: 4 });

    // By email, from the emails' own rows.
    const byEmail = await totals(t.resend, {
      dimensions: ['email'],
      emailId: [t.ids.opened, t.ids.plain],
      metrics: ['sent', 'delivered', 'unique_opened', 'clicked'],
    });
    expect(byEmail.data).toEqual(
      [
        { email_id: t.ids.opened, sent: 1, delivered: 1, unique_opened: 1, clicked: 1 },
        { email_id: t.ids.plain, sent: 1, delivered: 1, unique_opened: 0, clicked: 0 },
      ].sort((a, b) => a.email_id.localeCompare(b.email_id)),
    );

    // In another timezone the same hours fall into its days.
    const tokyo = await totals(t.resend, { dimensions: ['period'], timezone: 'Asia/Tokyo', metrics: ['sent'] });
    expect(tokyo.data!.every((r) => r.period!.endsWith('T15:00:00.000Z'))).toBe(true);
    expect(tokyo.totals.sent).toBe(5);

    // Another team sees none of it, even naming this team's domain and email.
    const other = await sendingTeam();
    expect((await totals(other.resend)).totals).toMatchObject({ sent: 0, delivered: 0, opened: 0 });
    expect((await totals(other.resend, { domainId: [t.domainId] })).totals).toMatchObject({ sent: 0 });
    expect((await totals(other.resend, { dimensions: ['domain'] })).data).toEqual([]);
    expect((await totals(other.resend, { emailId: [t.ids.opened] })).totals).toMatchObject({ sent: 0, clicked: 0 });
  }, 90_000);

  it("counts mail received by the team's mailboxes and a recipient's one-click unsubscribe, once each", async () => {
    const t = await mailboxTeam();
    await t.mailbox('support');
    const info = await mx().sendMail({
      from: 'ada@customer.example.org',
      to: `support@${t.domain}`,
      subject: 'Hello',
      text: 'x',
    });
    expect(info.response).toMatch(/^250 /);

    const topic = (await t.resend.topics.create({ name: 'Deals', defaultSubscription: 'opt_in' } as never)).data!.id;
    await t.resend.contacts.create({ email: 'fan@example.com' });
    const subject = `Topic send ${crypto.randomUUID()}`;
    const sent = await t.resend.emails.send({
      from: t.from,
      to: 'fan@example.com',
      subject,
      text: 'x',
      topicId: topic,
    } as never);
    expect(sent.error).toBeNull();
    const header = (await inboxMail(subject)).headers.find((h: any) => h.name.toLowerCase() === 'list-unsubscribe');
    const url = /<(https?:[^>]+)>/.exec(header.value)![1]!;
    // The mail client's one-click POST, and the same again (a retry changes nothing).
    for (const _ of [1, 2]) {
      const click = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(click.status).toBe(200);
    }
    const m = await waitFor(
      () => totals(t.resend, { metrics: ['received', 'unsubscribed', 'delivered', 'unsubscribe_rate'] }),
      (x) => x.totals.received === 1 && x.totals.unsubscribed === 1 && x.totals.delivered === 1,
      { what: 'the received mail and the unsubscribe counted' },
    );
    expect(m.totals).toEqual({ received: 1, unsubscribed: 1, delivered: 1, unsubscribe_rate: 100 });
  }, 60_000);

  it("breaks a broadcast's mail out by broadcast, with its name, apart from the team's other mail", async () => {
    const t = await sendingTeam();
    const segment = (await t.resend.segments.create({ name: 'Readers' })).data!.id;
    for (const email of ['delivered+1@resend.dev', 'delivered+2@resend.dev'])
      await t.resend.contacts.create({ email, segments: [{ id: segment }] } as never);
    const created = await t.resend.broadcasts.create({
      segmentId: segment,
      name: 'Autumn news',
      from: t.from,
      subject: 'News',
      html: '<p>News. <a href="{{{UNSUBSCRIBE_URL}}}">unsubscribe</a></p>',
    });
    expect(created.error).toBeNull();
    await t.resend.broadcasts.send(created.data!.id);
    const solo = await t.resend.emails.send({ from: t.from, to: 'delivered@resend.dev', subject: 'Solo', text: 'x' });
    await emailReaches(t.resend, solo.data!.id, ['delivered']);
    const m = await waitFor(
      () => totals(t.resend, { dimensions: ['broadcast'], metrics: ['sent', 'delivered'] }),
      (x) => x.data?.[0]?.delivered === 2,
      { what: "the broadcast's deliveries counted", timeoutMs: 30_000 },
    );
    expect(m.data).toEqual([{ broadcast_id: created.data!.id, broadcast_name: 'Autumn news', sent: 2, delivered: 2 }]);
    expect(m.totals).toEqual({ sent: 2, delivered: 2 });
    const filtered = await totals(t.resend, { broadcastId: [created.data!.id], metrics: ['delivered'] });
    expect(filtered.totals).toEqual({ delivered: 2 });
    expect((await totals(t.resend, { metrics: ['delivered'] })).totals).toEqual({ delivered: 3 });
  }, 60_000);

  it('refuses bad parameters with 422 validation_error naming the parameter', async () => {
    const t = await sendingTeam();
    const refusals: [Parameters<Resend['emails']['metrics']>[0], RegExp][] = [
      [{ granularity: 'yearly' as never }, /`granularity`/],
      [{ metrics: ['sent', 'views' as never] }, /`metrics\.1`.*sent, delivered|`metrics\.1`/],
      [{ dimensions: ['country' as never] }, /`dimensions\.0`/],
      [{ timezone: 'Mars/Olympus' }, /`timezone`.*IANA/],
      [{ startDate: 'last tuesday' }, /`start_date`/],
      [{ startDate: '2026-07-08', endDate: '2026-07-01' }, /`start_date`.*after/],
      [
        { granularity: 'hourly', startDate: new Date(Date.now() - 40 * 86_400_000).toISOString() },
        /`granularity`.*31 days/,
      ],
      [{ startDate: new Date(Date.now() - 500 * 86_400_000).toISOString() }, /`start_date`.*400 days/],
      [{ dimensions: ['email'], broadcastId: [crypto.randomUUID()] } as never, /`dimensions`.*broadcast/],
      [{ dimensions: ['email'] }, /`email_id`/],
      [{ domainId: ['not-a-uuid'] }, /`domain_id\.0`/],
    ];
    for (const [options, message] of refusals) {
      const out = await t.resend.emails.metrics(options);
      expect(out.error, JSON.stringify(options)).toMatchObject({ statusCode: 422, name: 'validation_error' });
      expect(out.error!.message, JSON.stringify(options)).toMatch(message);
    }
  });
});
