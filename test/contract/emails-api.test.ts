import { describe, expect, it } from 'vitest';
import { keys } from '@mailstack/core/table/keys';
import { addSuppression } from '@mailstack/core/domain/suppressions/suppression-store';
import { updateTeam } from '@mailstack/core/domain/teams/update-team';
import { calendarOf } from '@mailstack/core/domain/usage/get-usage';
import { call, newTeam, testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { expectReferenceShape } from '../support/openapi.ts';

const mail = (from: string, extra: Record<string, unknown> = {}) => ({
  from,
  to: 'someone@example.com',
  subject: 'Hello',
  text: 'Hi there',
  ...extra,
});

describe('POST /emails', () => {
  it('accepts an email and reads it back through GET /emails/{id} and the list, in the reference shapes', async () => {
    const t = await sendingTeam();
    const sent = await t.resend.emails.send({
      from: t.from,
      to: ['Jane Doe <jane@example.com>', 'bob@example.com'],
      subject: 'Hello',
      html: '<b>hi</b>',
      tags: [{ name: 'category', value: 'welcome' }],
    });
    expect(sent.error).toBeNull();
    expectReferenceShape('POST', '/emails', 200, sent.data);
    const got = await t.resend.emails.get(sent.data!.id);
    expectReferenceShape('GET', '/emails/{email_id}', 200, got.data);
    expect(got.data).toMatchObject({
      object: 'email',
      id: sent.data!.id,
      from: t.from,
      to: ['Jane Doe <jane@example.com>', 'bob@example.com'],
      subject: 'Hello',
      html: '<b>hi</b>',
      text: null,
      cc: null,
      bcc: null,
      reply_to: null,
      tags: [{ name: 'category', value: 'welcome' }],
    });
    expect(['queued', 'sent', 'delivered']).toContain(got.data!.last_event);
    const listed = await t.resend.emails.list();
    expectReferenceShape('GET', '/emails', 200, listed.data);
    expect(listed.data!.data.map((e) => e.id)).toEqual([sent.data!.id]);
  });

  describe('refuses each send rule with its status and error name', () => {
    const fiftyOne = Array.from({ length: 51 }, (_, i) => `r${i}@example.com`);
    it.each([
      [
        'an unquoted comma in the sender name',
        (f: string) => mail(`Doe, Jane <${f.split('<')[1]}`),
        422,
        'validation_error',
        'quoted',
      ],
      [
        'an at-sign in a display name',
        () => mail(`${'x'.repeat(0)}"support@bank.com" <hello@example.org>`),
        422,
        'validation_error',
        'at-sign',
      ],
      [
        'two addresses in one to entry',
        (f: string) => mail(f, { to: 'a@example.com, b@example.com' }),
        422,
        'validation_error',
        'exactly one',
      ],
      [
        'more than 50 recipients across to, cc and bcc',
        (f: string) => mail(f, { to: fiftyOne.slice(0, 30), cc: fiftyOne.slice(30, 45), bcc: fiftyOne.slice(45) }),
        422,
        'validation_error',
        '50',
      ],
      [
        'a from domain the team has not verified',
        () => mail('hello@not-ours.example.net'),
        422,
        'validation_error',
        'not verified',
      ],
      [
        'an attachment given as a path URL',
        (f: string) => mail(f, { attachments: [{ filename: 'a.pdf', path: 'https://example.com/a.pdf' }] }),
        422,
        'validation_error',
        'never fetched',
      ],
      [
        'an attachment with a content_id',
        (f: string) => mail(f, { attachments: [{ filename: 'a.png', content: 'aGk=', content_id: 'logo' }] }),
        422,
        'validation_error',
        'content_id',
      ],
      [
        'a header outside the allowlist',
        (f: string) => mail(f, { headers: { 'Return-Path': 'x@y.com' } }),
        422,
        'validation_error',
        'Return-Path',
      ],
      [
        'List-Unsubscribe without List-Unsubscribe-Post',
        (f: string) => mail(f, { headers: { 'List-Unsubscribe': '<https://example.com/u>' } }),
        422,
        'validation_error',
        'together',
      ],
      [
        'a look-alike sender name',
        (f: string) => mail(`P\u0430yPal <${f.split('<')[1]}`),
        422,
        'validation_error',
        'look-alike',
      ],
      [
        'an invisible character in the subject',
        (f: string) => mail(f, { subject: 'Pay\u200BPal' }),
        422,
        'validation_error',
        'invisible',
      ],
      ['an unknown field', (f: string) => mail(f, { priority: 'high' }), 422, 'validation_error', 'priority'],
      ['no body', (f: string) => ({ from: f, to: 'a@example.com', subject: 'x' }), 422, 'validation_error', 'html'],
      [
        'a template together with a body',
        (f: string) => mail(f, { template: { id: 'x' } }),
        422,
        'validation_error',
        'template',
      ],
      ['an unknown topic', (f: string) => mail(f, { topic_id: crypto.randomUUID() }), 422, 'validation_error', 'topic'],
      [
        'a malformed scheduled_at',
        (f: string) => mail(f, { scheduled_at: 'next tuesdayish' }),
        422,
        'validation_error',
        'scheduled_at',
      ],
    ])('%s', async (_case, body, status, name, says) => {
      const t = await sendingTeam();
      const out = await call('POST', '/emails', { key: t.secret, body: body(t.from) });
      expect(out.status).toBe(status);
      expect(out.json).toMatchObject({ statusCode: status, name });
      expect(out.json.message).toContain(says);
    });
  });

  it('caps attachments by plan: 1 MB on free, 5 MB on pro', async () => {
    const t = await sendingTeam({ plan: 'free' });
    const content = Buffer.alloc(1_200_000, 1).toString('base64');
    const refused = await t.resend.emails.send({ ...mail(t.from), attachments: [{ filename: 'big.bin', content }] });
    expect(refused.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(refused.error!.message).toContain('1000000');
    await t.setPlan('pro');
    const accepted = await t.resend.emails.send({ ...mail(t.from), attachments: [{ filename: 'big.bin', content }] });
    expect(accepted.error).toBeNull();
  });

  it('drops suppressed recipients and refuses with all_recipients_suppressed when every to is suppressed', async () => {
    const t = await sendingTeam();
    await addSuppression(testDeps(), { teamId: t.team.id, email: 'gone@example.com', origin: 'manual', source: 'api' });
    const refused = await t.resend.emails.send(mail(t.from, { to: 'Gone <GONE@example.com>' }) as any);
    expect(refused.error).toMatchObject({
      statusCode: 422,
      name: 'all_recipients_suppressed',
      message: 'All recipients are suppressed',
    });
    const partial = await t.resend.emails.send(
      mail(t.from, { to: ['gone@example.com', 'here@example.com'], cc: 'gone@example.com' }) as any,
    );
    expect((await t.resend.emails.get(partial.data!.id)).data).toMatchObject({ to: ['here@example.com'], cc: null });
  });

  it('counts unsubscribe-origin suppressions and topic opt-outs only for sends with a topic', async () => {
    const t = await sendingTeam();
    const d = testDeps();
    const topicId = crypto.randomUUID();
    await d.tableStore.put({
      TableName: d.table,
      Item: {
        ...keys.topic.item(t.team.id, topicId),
        type: 'topic',
        id: topicId,
        name: 'News',
        default_subscription: 'opt_in',
      },
    });
    await addSuppression(d, {
      teamId: t.team.id,
      email: 'unsub@example.com',
      origin: 'unsubscribe',
      source: 'one_click',
    });
    expect((await t.resend.emails.send(mail(t.from, { to: 'unsub@example.com' }) as any)).error).toBeNull();
    expect((await t.resend.emails.send(mail(t.from, { to: 'unsub@example.com', topicId }) as any)).error).toMatchObject(
      { name: 'all_recipients_suppressed' },
    );
    const optOutTopic = crypto.randomUUID();
    await d.tableStore.put({
      TableName: d.table,
      Item: {
        ...keys.topic.item(t.team.id, optOutTopic),
        type: 'topic',
        id: optOutTopic,
        name: 'Promos',
        default_subscription: 'opt_out',
      },
    });
    expect(
      (await t.resend.emails.send(mail(t.from, { to: 'anyone@example.com', topicId: optOutTopic }) as any)).error,
    ).toMatchObject({ name: 'all_recipients_suppressed' });
  });

  it('refuses sends from a team suspended elsewhere with team_suspended at the next send, while its key still authenticates', async () => {
    const t = await sendingTeam();
    // A send first: the host holds a fresh copy of the team, which the suspension (made in this
    // process, as the admin CLI makes it) does not wait out.
    expect((await t.resend.emails.send(mail(t.from))).error).toBeNull();
    await updateTeam(testDeps(), t.team.id, { status: 'suspended' });
    const out = await t.resend.emails.send(mail(t.from));
    expect(out.error).toMatchObject({ statusCode: 403, name: 'team_suspended' });
    expect((await t.resend.batch.send([mail(t.from)])).error).toMatchObject({
      statusCode: 403,
      name: 'team_suspended',
    });
    expect((await t.resend.domains.list()).error).toBeNull();
  });

  it('lets a sending-access key send but not read, and holds a domain-restricted key to its domain', async () => {
    const t = await sendingTeam();
    const sending = await t.addKey('sending_access');
    const sent = await sending.resend.emails.send(mail(t.from));
    expect(sent.error).toBeNull();
    expect((await sending.resend.emails.get(sent.data!.id)).error).toMatchObject({
      statusCode: 403,
      name: 'restricted_api_key',
    });
    expect((await sending.resend.emails.list()).error).toMatchObject({ statusCode: 403, name: 'restricted_api_key' });
    expect((await call('DELETE', `/emails/${sent.data!.id}`, { key: sending.secret })).json).toMatchObject({
      statusCode: 403,
      name: 'restricted_api_key',
    });
    const other = await t.resend.domains.create({ name: `other-${t.domain}` });
    await t.resend.domains.verify(other.data!.id);
    const scoped = await t.addKey('sending_access', t.domainId);
    expect((await scoped.resend.emails.send(mail(t.from))).error).toBeNull();
    expect((await scoped.resend.emails.send(mail(`hi@other-${t.domain}`))).error).toMatchObject({
      statusCode: 403,
      name: 'restricted_api_key',
    });
    // Reschedule and cancel are sending routes (spec §5): a sending key may use them; a
    // domain-restricted key reaches only the emails of its domain.
    const later = async (from: string) =>
      (await t.resend.emails.send(mail(from, { scheduledAt: 'in 1 hour', text: 'confidential' }) as any)).data!.id;
    const own = await later(t.from);
    const foreign = await later(`hi@other-${t.domain}`);
    for (const id of [own, foreign]) {
      expect((await scoped.resend.emails.update({ id, scheduledAt: 'in 2 hours' })).error).toMatchObject(
        id === own ? {} : { statusCode: 403, name: 'restricted_api_key' },
      );
      const canceled = await scoped.resend.emails.cancel(id);
      if (id === own)
        expect(canceled).toMatchObject({ data: { object: 'email', id, last_event: 'canceled' }, error: null });
      else expect(canceled.error).toMatchObject({ statusCode: 403, name: 'restricted_api_key' });
    }
    expect((await t.resend.emails.get(own)).data).toMatchObject({ last_event: 'canceled' });
    expect((await t.resend.emails.get(foreign)).data).toMatchObject({ last_event: 'scheduled' });
    expect((await sending.resend.emails.cancel(foreign)).data).toMatchObject({ object: 'email', id: foreign });
    expect((await t.resend.emails.get(foreign)).data).toMatchObject({ last_event: 'canceled' });
  });

  it("answers 404 for another team's email on every route", async () => {
    const owner = await sendingTeam();
    const stranger = await newTeam();
    const { data } = await owner.resend.emails.send(mail(owner.from, { scheduled_at: 'in 1 hour' }) as any);
    const id = data!.id;
    expect((await stranger.resend.emails.get(id)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
    expect((await stranger.resend.emails.update({ id, scheduledAt: 'in 2 hours' })).error).toMatchObject({
      statusCode: 404,
      name: 'not_found',
    });
    expect((await stranger.resend.emails.cancel(id)).error).toMatchObject({ statusCode: 404, name: 'not_found' });
    expect((await call('DELETE', `/emails/${id}`, { key: stranger.secret })).json).toMatchObject({
      statusCode: 404,
      name: 'not_found',
    });
    expect((await stranger.resend.emails.list()).data!.data).toEqual([]);
  });

  it('deletes an email record (our addition)', async () => {
    const t = await sendingTeam();
    const { data } = await t.resend.emails.send(mail(t.from));
    const out = await call('DELETE', `/emails/${data!.id}`, { key: t.secret });
    expect(out.json).toEqual({ object: 'email', id: data!.id, deleted: true });
    expect((await t.resend.emails.get(data!.id)).error).toMatchObject({ statusCode: 404 });
  });
});

describe('idempotency', () => {
  it('returns the original response for the same key and payload, 409 for another payload', async () => {
    const t = await sendingTeam();
    const key = crypto.randomUUID();
    const first = await t.resend.emails.send(mail(t.from), { idempotencyKey: key });
    const again = await t.resend.emails.send(mail(t.from), { idempotencyKey: key });
    expect(again.data).toEqual(first.data);
    const other = await t.resend.emails.send(mail(t.from, { subject: 'Other' }) as any, { idempotencyKey: key });
    expect(other.error).toMatchObject({ statusCode: 409, name: 'invalid_idempotent_request' });
    expect((await t.resend.emails.list()).data!.data).toHaveLength(1);
  });

  it('scopes keys to the team', async () => {
    const a = await sendingTeam();
    const b = await sendingTeam();
    const key = crypto.randomUUID();
    const fromA = await a.resend.emails.send(mail(a.from), { idempotencyKey: key });
    const fromB = await b.resend.emails.send(mail(b.from), { idempotencyKey: key });
    expect(fromB.data!.id).not.toBe(fromA.data!.id);
  });

  it('creates exactly one email for fifty concurrent identical requests with one key', async () => {
    const t = await sendingTeam();
    const key = crypto.randomUUID();
    const results = await Promise.all(
      Array.from({ length: 50 }, () => t.resend.emails.send(mail(t.from), { idempotencyKey: key })),
    );
    const ids = new Set(results.filter((r) => r.data).map((r) => r.data!.id));
    expect(ids.size).toBe(1);
    for (const r of results.filter((r) => r.error))
      expect(r.error).toMatchObject({ statusCode: 409, name: 'concurrent_idempotent_requests' });
    expect((await t.resend.emails.list()).data!.data).toHaveLength(1);
  });

  it('refuses a key longer than 256 characters with invalid_idempotency_key', async () => {
    const t = await sendingTeam();
    const out = await t.resend.emails.send(mail(t.from), { idempotencyKey: 'k'.repeat(257) });
    expect(out.error).toMatchObject({ statusCode: 400, name: 'invalid_idempotency_key' });
  });

  it('applies to batches too', async () => {
    const t = await sendingTeam();
    const key = crypto.randomUUID();
    const first = await t.resend.batch.send([mail(t.from), mail(t.from)], { idempotencyKey: key });
    const again = await t.resend.batch.send([mail(t.from), mail(t.from)], { idempotencyKey: key });
    expect(again.data).toEqual(first.data);
  });
});

describe('POST /emails/batch', () => {
  it('sends every item in strict mode and answers data in order', async () => {
    const t = await sendingTeam();
    const out = await t.resend.batch.send([mail(t.from, { subject: 'one' }), mail(t.from, { subject: 'two' })] as any);
    expect(out.error).toBeNull();
    expectReferenceShape('POST', '/emails/batch', 200, out.data);
    expect(out.data!.data).toHaveLength(2);
    expect(out.data).not.toHaveProperty('errors');
    expect((await t.resend.emails.get(out.data!.data[1]!.id)).data!.subject).toBe('two');
  });

  it('refuses the whole batch in strict mode when one item is invalid', async () => {
    const t = await sendingTeam();
    const out = await t.resend.batch.send([mail(t.from), mail('bad')] as any);
    expect(out.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(out.error!.message).toContain('1');
    expect((await t.resend.emails.list()).data!.data).toHaveLength(0);
  });

  it('sends the valid items in permissive mode and reports the others by index', async () => {
    const t = await sendingTeam();
    const out = await t.resend.batch.send(
      [mail('bad'), mail(t.from), mail(t.from, { to: 'x, y@example.com' })] as any,
      { batchValidation: 'permissive' },
    );
    expect(out.data!.data).toHaveLength(1);
    expect((out.data as any).errors.map((e: any) => e.index)).toEqual([0, 2]);
  });

  it('refuses a suppressed item with validation_error naming it (strict), and reports it by index in permissive mode', async () => {
    const t = await sendingTeam();
    await addSuppression(testDeps(), {
      teamId: t.team.id,
      email: 'gone-batch@example.com',
      origin: 'manual',
      source: 'api',
    });
    const strict = await t.resend.batch.send([mail(t.from), mail(t.from, { to: 'gone-batch@example.com' })] as any);
    expect(strict.error).toMatchObject({
      statusCode: 422,
      name: 'validation_error',
      message: 'Item 1: All recipients are suppressed',
    });
    const permissive = await t.resend.batch.send(
      [mail(t.from), mail(t.from, { to: 'gone-batch@example.com' })] as any,
      { batchValidation: 'permissive' },
    );
    expect(permissive.data!.data).toHaveLength(1);
    expect((permissive.data as any).errors).toEqual([{ index: 1, message: 'All recipients are suppressed' }]);
  });

  it('refuses more than 100 emails with validation_error', async () => {
    const t = await sendingTeam();
    const out = await t.resend.batch.send(Array.from({ length: 101 }, () => mail(t.from)) as any);
    expect(out.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
  });

  it('refuses a body that is not an array', async () => {
    const t = await sendingTeam();
    const out = await call('POST', '/emails/batch', { key: t.secret, body: mail(t.from) });
    expect(out.json).toMatchObject({ statusCode: 422, name: 'validation_error' });
  });
});

describe('quotas (cloud mode)', () => {
  // The count a team has sent, set on its counter's first shard; the other shards cleared.
  const setSent = async (teamId: string, keyOf: (shard: number) => { pk: string; sk: string }, n: number) => {
    const d = testDeps();
    await d.tableStore.put({ TableName: d.table, Item: { ...keyOf(0), emails_sent: n } });
    for (let shard = 1; shard < keys.usage.shards; shard++)
      await d.tableStore.delete({ TableName: d.table, Key: keyOf(shard) });
    void teamId;
  };

  it('parks sends past 150% of the daily cap, then refuses at 3 times the cap in backlog with daily_quota_exceeded', async () => {
    const t = await sendingTeam({ plan: 'free' });
    const day = calendarOf(Date.now()).day;
    await setSent(t.team.id, (shard) => keys.usage.day(t.team.id, day, shard), 150);
    const parked = await t.resend.emails.send(mail(t.from));
    expect(parked.error).toBeNull();
    expect((await t.resend.emails.get(parked.data!.id)).data!.last_event).toBe('queued');
    await setSent(t.team.id, (shard) => keys.usage.day(t.team.id, day, shard), 450);
    const refused = await t.resend.emails.send(mail(t.from));
    expect(refused.error).toMatchObject({ statusCode: 429, name: 'daily_quota_exceeded' });
    expect(refused.error!.message).toContain(
      'sends 100 emails a day and parks at most 300 more for after midnight; this email would go past that',
    );
    expect(Number(refused.headers?.['retry-after'])).toBeGreaterThan(0);
    const usage = await call('GET', '/usage', { key: t.secret });
    expect(usage.json.today.emails_sent).toBe(450);
  });

  it('refuses past the included monthly volume with overage off, naming the renewal date', async () => {
    const t = await sendingTeam({ plan: 'pro' });
    const cal = calendarOf(Date.now());
    await setSent(t.team.id, (shard) => keys.usage.month(t.team.id, cal.month, shard), 50_000);
    const refused = await t.resend.emails.send(mail(t.from));
    expect(refused.error).toMatchObject({ statusCode: 429, name: 'monthly_quota_exceeded' });
    expect(refused.error!.message).toContain(new Date(cal.monthEnd).toISOString().slice(0, 10));
  });

  it('refuses a whole batch for quota, once', async () => {
    const t = await sendingTeam({ plan: 'pro' });
    await setSent(t.team.id, (shard) => keys.usage.month(t.team.id, calendarOf(Date.now()).month, shard), 49_999);
    const out = await t.resend.batch.send([mail(t.from), mail(t.from)] as any);
    expect(out.error).toMatchObject({ statusCode: 429, name: 'monthly_quota_exceeded' });
    expect((await t.resend.emails.list()).data!.data).toHaveLength(0);
  });
});
