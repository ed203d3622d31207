import { describe, expect, it } from 'vitest';
import { recordEvent } from '@mailstack/core/domain/events/record-event';
import { countSends } from '@mailstack/core/domain/quotas/reserve-quota';
import { eventsOf } from '../support/events.ts';
import { WEBHOOK_EVENT_TYPES } from '@mailstack/core/domain/webhooks/webhook';
import { call, local, newTeam, testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { useReceivers, type startReceiver } from '../support/receiver.ts';
import { clearOfUtcMidnight, waitFor } from '../support/wait.ts';

const receiver = useReceivers();

/** Waits until the receiver has seen every one of `types` (in any order); returns the payloads by type. */
const seen = async (rx: Awaited<ReturnType<typeof startReceiver>>, types: string[], timeoutMs = 30_000) => {
  await waitFor(
    async () => rx.received.map((r) => r.json.type as string),
    (got) => types.every((t) => got.includes(t)),
    { what: `webhook events ${types.join(', ')}`, timeoutMs, everyMs: 200 },
  );
  expect(rx.received.map((r) => r.json.type).sort()).toEqual(expect.arrayContaining(types));
  const byType = new Map<string, any[]>();
  for (const r of rx.received) byType.set(r.json.type, [...(byType.get(r.json.type) ?? []), r.json]);
  return byType;
};

const everyEvent = () => WEBHOOK_EVENT_TYPES.filter((t) => t !== 'email.prefetched') as any[];
/** Our event names beyond the SDK's WebhookEvent union (the API accepts them). */
const names = (...e: string[]) => e as any[];

describe('every event of spec §6 reaches subscribed endpoints in the {type, created_at, data} envelope', () => {
  it('domain.created, domain.updated and domain.deleted carry the domain with its records', async () => {
    const { resend } = await newTeam({ plan: 'pro' });
    const rx = await receiver();
    await resend.webhooks.create({ endpoint: rx.url, events: ['domain.created', 'domain.updated', 'domain.deleted'] });
    const { data } = await resend.domains.create({ name: `events-${Date.now()}.example.com` });
    await resend.domains.update({ id: data!.id, openTracking: true });
    await resend.domains.remove(data!.id);
    const byType = await seen(rx, ['domain.created', 'domain.updated', 'domain.deleted']);
    for (const type of ['domain.created', 'domain.updated', 'domain.deleted']) {
      expect(byType.get(type)![0]).toEqual({
        type,
        created_at: expect.any(String),
        data: {
          id: data!.id,
          name: data!.name,
          status: expect.any(String),
          created_at: expect.any(String),
          region: 'us-east-1',
          records: expect.arrayContaining([expect.objectContaining({ record: 'SPF', type: 'MX' })]),
        },
      });
    }
  });

  it("topic.created, topic.updated and topic.deleted carry the SDK's TopicEventData", async () => {
    const { resend } = await newTeam();
    const rx = await receiver();
    await resend.webhooks.create({ endpoint: rx.url, events: ['topic.created', 'topic.updated', 'topic.deleted'] });
    const { data } = await resend.topics.create({ name: 'News', defaultSubscription: 'opt_in' });
    await resend.topics.update({ id: data!.id, name: 'Newsletter' });
    await resend.topics.remove(data!.id);
    const byType = await seen(rx, ['topic.created', 'topic.updated', 'topic.deleted']);
    expect(byType.get('topic.created')![0].data).toEqual({
      id: data!.id,
      name: 'News',
      description: null,
      default_subscription: 'opt_in',
      deleted: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(byType.get('topic.updated')![0].data).toMatchObject({ name: 'Newsletter', deleted: false });
    expect(byType.get('topic.deleted')![0].data).toMatchObject({ id: data!.id, deleted: true });
  });

  it("contact events carry spec §6's fields (names null when unset) and the reference's audience_id when the contact is in an audience", async () => {
    // Prepare
    const { resend } = await newTeam();
    const rx = await receiver();
    await resend.webhooks.create({ endpoint: rx.url, events: ['contact.created'] });
    const audience = (await resend.segments.create({ name: 'Customers' })).data!.id;

    // Act
    const inAudience = await resend.contacts.create({ email: 'in@example.com', audienceId: audience } as any);
    const alone = await resend.contacts.create({ email: 'alone@example.com', firstName: 'Ada' });

    // Assess
    await waitFor(
      async () => rx.received.filter((r) => r.json.type === 'contact.created').length,
      (n) => n >= 2,
      { what: 'two contact.created events', timeoutMs: 30_000, everyMs: 200 },
    );
    const data = (id: string) => rx.received.find((r) => r.json.data.id === id)!.json.data;
    expect(data(inAudience.data!.id)).toEqual({
      id: inAudience.data!.id,
      audience_id: audience,
      segment_ids: [audience],
      email: 'in@example.com',
      first_name: null,
      last_name: null,
      unsubscribed: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      source: 'api',
    });
    expect(data(alone.data!.id)).toEqual({
      id: alone.data!.id,
      segment_ids: [],
      email: 'alone@example.com',
      first_name: 'Ada',
      last_name: null,
      unsubscribed: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      source: 'api',
    });
  });

  it('audience events carry their source; suppression events their origin', async () => {
    const { resend, secret: key } = await newTeam();
    const rx = await receiver();
    await resend.webhooks.create({
      endpoint: rx.url,
      events: names(
        'contact.created',
        'contact.updated',
        'contact.unsubscribed',
        'contact.deleted',
        'suppression.added',
        'suppression.removed',
      ),
    });
    const { data } = await resend.contacts.create({ email: 'aud@example.com' });
    await resend.contacts.update({ id: data!.id, unsubscribed: true });
    await resend.contacts.remove({ id: data!.id });
    await call('POST', '/suppressions', { key, body: { email: 'blocked@example.com' } });
    await call('DELETE', `/suppressions/${encodeURIComponent('blocked@example.com')}`, { key });
    const byType = await seen(rx, [
      'contact.created',
      'contact.updated',
      'contact.unsubscribed',
      'contact.deleted',
      'suppression.added',
      'suppression.removed',
    ]);
    for (const t of ['contact.created', 'contact.updated', 'contact.unsubscribed', 'contact.deleted'])
      expect(byType.get(t)![0].data).toMatchObject({ id: data!.id, email: 'aud@example.com', source: 'api' });
    expect(byType.get('suppression.added')![0].data).toMatchObject({ email: 'blocked@example.com', origin: 'manual' });
  });

  it('email.scheduled and the pipeline events (email.sent, email.delivered) carry the email', async () => {
    const { resend, from } = await sendingTeam();
    const rx = await receiver();
    await resend.webhooks.create({ endpoint: rx.url, events: ['email.scheduled', 'email.sent', 'email.delivered'] });
    const later = await resend.emails.send({
      from,
      to: 'delivered@resend.dev',
      subject: 'Later',
      text: 'x',
      scheduledAt: new Date(Date.now() + 3_600_000).toISOString(),
    });
    const now = await resend.emails.send({ from, to: 'delivered@resend.dev', subject: 'Now', text: 'x' });
    const byType = await seen(rx, ['email.scheduled', 'email.sent', 'email.delivered']);
    expect(byType.get('email.scheduled')![0].data).toMatchObject({
      email_id: later.data!.id,
      subject: 'Later',
      to: ['delivered@resend.dev'],
      from,
    });
    expect(byType.get('email.sent')![0].data).toMatchObject({ email_id: now.data!.id, subject: 'Now' });
    expect(byType.get('email.delivered')![0].data).toMatchObject({ email_id: now.data!.id });
  });

  it('email.suppressed names each recipient left out for being on the suppression list, with the email and the reason', async () => {
    const { resend, from, secret: key } = await sendingTeam();
    const rx = await receiver();
    await resend.webhooks.create({ endpoint: rx.url, events: ['email.suppressed'] });
    expect((await call('POST', '/suppressions', { key, body: { email: 'gone@example.com' } })).status).toBe(201);
    const sent = await resend.emails.send({
      from,
      to: ['delivered@resend.dev', 'Gone <gone@example.com>'],
      subject: 'Partly suppressed',
      text: 'x',
    });
    expect(sent.error).toBeNull();
    const byType = await seen(rx, ['email.suppressed']);
    expect(byType.get('email.suppressed')).toHaveLength(1);
    expect(byType.get('email.suppressed')![0].data).toMatchObject({
      email_id: sent.data!.id,
      subject: 'Partly suppressed',
      from,
      to: ['gone@example.com'],
      suppressed: {
        type: 'OnAccountSuppressionList',
        message: expect.stringContaining('gone@example.com'),
        diagnosticCode: [],
      },
    });
    // Nothing suppressed, nothing announced.
    await resend.emails.send({ from, to: 'delivered@resend.dev', subject: 'Clean', text: 'x' });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(rx.received).toHaveLength(1);
  });

  it("email.bounced carries the bounce as the reference declares it: type, subType, message and the servers' diagnosticCode", async () => {
    const { resend, from } = await sendingTeam();
    const rx = await receiver();
    await resend.webhooks.create({ endpoint: rx.url, events: ['email.bounced'] });
    const sent = await resend.emails.send({ from, to: 'bounced@resend.dev', subject: 'Bounce', text: 'x' });
    const byType = await seen(rx, ['email.bounced']);
    expect(byType.get('email.bounced')![0].data).toMatchObject({
      email_id: sent.data!.id,
      subject: 'Bounce',
      from,
      to: ['bounced@resend.dev'],
      bounce: {
        type: 'Permanent',
        subType: expect.any(String),
        message: expect.any(String),
        diagnosticCode: expect.any(Array),
      },
    });
  }, 40_000);

  it('quota.warning, quota.reached and quota.paused fire once each as a free team crosses 80, 100 and 150 emails of the UTC day', async () => {
    // The lines count the UTC day's sends: midnight must not pass between the batches.
    await clearOfUtcMidnight();
    const { resend, from, setPlan, team } = await sendingTeam();
    await setPlan('free');
    const rx = await receiver();
    await resend.webhooks.create({ endpoint: rx.url, events: names('quota.warning', 'quota.reached', 'quota.paused') });
    const batch = (n: number, tag: string) =>
      resend.batch.send(
        Array.from({ length: n }, (_, i) => ({
          from,
          to: 'success@simulator.amazonses.com',
          subject: `${tag} ${i}`,
          text: 'x',
        })),
      );
    expect((await batch(79, 'a')).error).toBeNull();
    expect((await batch(21, 'b')).error).toBeNull(); // 100: warning and reached
    expect((await batch(51, 'c')).error).toBeNull(); // 151: paused
    expect((await batch(5, 'd')).error).toBeNull(); // nothing new
    const byType = await seen(rx, ['quota.warning', 'quota.reached', 'quota.paused']);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(rx.received.map((r) => r.json.type).sort()).toEqual(['quota.paused', 'quota.reached', 'quota.warning']);
    const midnight = new Date(
      Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1),
    ).toISOString();
    expect(byType.get('quota.warning')![0].data).toEqual({
      used: 100,
      limit: 100,
      period: 'day',
      resets_at: midnight,
      // The team's overview in the dashboard, where its usage is shown.
      dashboard_url: `${local().dashboardUrl}/t/${team.id}/`,
      ceiling: 150,
    });
    expect(byType.get('quota.paused')![0].data).toMatchObject({ period: 'day', used: 150, ceiling: 150 });
  }, 250_000);

  it('a broadcast crossing a quota line records quota.* as an API send would: the daily lines of a free team, the period lines of a pro team', async () => {
    // Prepare
    await clearOfUtcMidnight();
    const d = testDeps();
    const free = await newTeam({ plan: 'free' });
    const pro = await newTeam({ plan: 'pro' });
    const quota = async (teamId: string) => (await eventsOf(teamId)).filter((e) => e.type.startsWith('quota.'));

    // Act: the fan-out counts each page of a broadcast's recipients with countSends.
    await countSends(d, free.team, 79);
    const belowLine = await quota(free.team.id);
    await countSends(d, free.team, 30); // 109: past 80 and 100
    await countSends(d, free.team, 50); // 159: past 151
    await countSends(d, free.team, 10); // nothing new
    await countSends(d, pro.team, 40_000); // the period's 80 percent
    await countSends(d, pro.team, 10_000); // the included 50,000

    // Assess
    expect(belowLine).toEqual([]);
    const daily = await quota(free.team.id);
    expect(daily.map((e) => e.type)).toEqual(['quota.warning', 'quota.reached', 'quota.paused']);
    expect(daily[0]!.data).toMatchObject({ used: 109, limit: 100, period: 'day', ceiling: 150 });
    const monthly = await quota(pro.team.id);
    expect(monthly.map((e) => e.type)).toEqual(['quota.warning', 'quota.reached']);
    expect(monthly[1]!.data).toMatchObject({
      used: 50_000,
      limit: 50_000,
      period: 'month',
      overage: expect.any(String),
    });
  }, 250_000);

  it('email.prefetched is opt-in: only an endpoint naming it receives it', async () => {
    const { team, resend } = await newTeam();
    const named = await receiver();
    const opens = await receiver();
    await resend.webhooks.create({ endpoint: named.url, events: names('email.prefetched') });
    await resend.webhooks.create({ endpoint: opens.url, events: everyEvent() });
    await recordEvent(testDeps(), team.id, 'email.prefetched', { email_id: 'e1', open: { reason: 'apple_mpp' } });
    await recordEvent(testDeps(), team.id, 'email.opened', {
      email_id: 'e1',
      created_at: new Date().toISOString(),
      from: 'a@example.com',
      to: ['b@example.com'],
      subject: 'S',
      open: { ipAddress: '203.0.113.9', userAgent: 'UA', timestamp: new Date().toISOString() },
    });
    await named.waitFor(1);
    await opens.waitFor(1);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(named.received.map((r) => r.json.type)).toEqual(['email.prefetched']);
    expect(opens.received.map((r) => r.json.type)).toEqual(['email.opened']);
  });
});
