import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Resend } from 'resend';
import { keys } from '@mailstack/core/table/keys';
import { queryAll } from '@mailstack/core/table/ops';
import { LOG_RETENTION_DAYS } from '@mailstack/core/limits';
import { bodiesOf } from '@mailstack/core/domain/logs/request-log';
import { randomUUID } from 'node:crypto';
import { REST_ROUTES } from '../../functions/routes.ts';
import { call, newTeam, testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { waitFor } from '../support/wait.ts';
import { expectReferenceShape } from '../support/openapi.ts';

/** The team's logs listed through the SDK, waited for until `done` holds. */
const logsUntil = (resend: Resend, done: (rows: { endpoint: string; method: string }[]) => boolean, what: string) =>
  waitFor(
    async () => (await resend.logs.list({ limit: 100 })).data?.data ?? [],
    (rows) => done(rows),
    { what, timeoutMs: 20_000 },
  );

/** Every stored log row of a team, from every shard, as the table holds it. */
const rawLogs = async (teamId: string) =>
  (
    await Promise.all(
      Array.from({ length: keys.requestLog.shards }, (_, shard) =>
        queryAll(testDeps(), { pk: keys.requestLog.partition(teamId, shard) }),
      ),
    )
  ).flat();

/**
 * Every stored log row of a team, as the table holds it, with its bodies as text (a row keeps
 * large ones compressed: a secret in them would not show in the row's bytes).
 */
const storedLogs = async (teamId: string) =>
  (await rawLogs(teamId)).map((row) => {
    const { bodies: _, ...rest } = row;
    return { ...rest, ...bodiesOf(row) } as Record<string, any>;
  });

describe('request logs (resend.logs.*)', () => {
  it("shows a failed send's request body and its 422 answer within seconds, listed newest first with cursor pages", async () => {
    const { resend } = await newTeam();
    const failed = await resend.emails.send({ from: 'not an address', to: 'a@example.com', subject: 'Hi', text: 'x' });
    expect(failed.error).toMatchObject({ statusCode: 422 });
    // Within seconds of the answer: the clock starts when the caller has its 422. The bound holds
    // on two cores shared with the suite's other files (one of them starts a second host beside
    // this one), whose requests are logged through the same queue; idle, a log takes well under one.
    const answered = Date.now();

    const rows = await logsUntil(
      resend,
      (all) => all.some((r) => r.endpoint === '/emails' && r.method === 'POST'),
      'the failed send in GET /logs',
    );
    const row = rows.find((r) => r.endpoint === '/emails')!;
    expect(Date.now() - answered).toBeLessThan(10_000);
    expect(row).toEqual({
      id: expect.any(String),
      created_at: expect.any(String),
      endpoint: '/emails',
      method: 'POST',
      response_status: 422,
      user_agent: expect.stringContaining('resend-node'),
    });
    const got = await resend.logs.get(row.id);
    expect(got.error).toBeNull();
    expect(got.data).toEqual({
      object: 'log',
      ...row,
      request_body: { from: 'not an address', to: 'a@example.com', subject: 'Hi', text: 'x' },
      response_body: { statusCode: 422, name: 'validation_error', message: failed.error!.message },
    });
    expectReferenceShape('GET', '/logs/{log_id}', 200, got.data);

    // Newest first, with limit, after and before.
    await resend.domains.list();
    await resend.contacts.list();
    const listed = await logsUntil(
      resend,
      (all) => all.some((r) => r.endpoint === '/contacts'),
      'the later requests in GET /logs',
    );
    const ids = listed.map((r) => r.id);
    expect([...ids].sort().reverse()).toEqual(ids);
    expect(listed.findIndex((r) => r.endpoint === '/contacts')).toBeLessThan(
      listed.findIndex((r) => r.endpoint === '/domains'),
    );
    const page = await resend.logs.list({ limit: 1 });
    expectReferenceShape('GET', '/logs', 200, page.data);
    expect(page.data).toMatchObject({ object: 'list', has_more: true, data: [{ id: expect.any(String) }] });
    const newest = page.data!.data[0]!.id;
    const next = await resend.logs.list({ limit: 2, after: newest });
    expect(next.data!.data.map((r) => r.id).every((id) => id < newest)).toBe(true);
    const back = await resend.logs.list({ limit: 1, before: next.data!.data[0]!.id });
    expect(back.data!.data.map((r) => r.id)).toEqual([newest]);
    expect((await call('GET', '/logs?limit=0', { key: (await newTeam()).secret })).status).toBe(422);
  });

  it("answers 404 for another team's log and for an id that names none", async () => {
    const mine = await newTeam();
    const theirs = await newTeam();
    await theirs.resend.domains.list();
    const [theirLog] = await logsUntil(theirs.resend, (all) => all.length > 0, "the other team's log");
    const got = await mine.resend.logs.get(theirLog!.id);
    expect(got.error).toMatchObject({ statusCode: 404, name: 'not_found' });
    expect((await mine.resend.logs.get(crypto.randomUUID())).error).toMatchObject({ statusCode: 404 });
    expect((await mine.resend.logs.list()).data!.data.map((r) => r.id)).not.toContain(theirLog!.id);
    const sending = await mine.addKey('sending_access');
    expect((await sending.resend.logs.list()).error).toMatchObject({ statusCode: 403 });
  });

  it('keeps no secret in any stored log: signing secrets, keys, passwords, attachment content, signed links', async () => {
    const t = await sendingTeam();
    const given = `whsec_${randomBytes(32).toString('base64')}`;
    const hook = await t.resend.webhooks.create({
      endpoint: 'http://127.0.0.1:9/hook',
      events: ['email.sent'],
      signing_secret: given,
    } as Parameters<Resend['webhooks']['create']>[0]);
    expect(hook.error).toBeNull();
    const made = hook.data!.signing_secret;
    const read = (await t.resend.webhooks.get(hook.data!.id)).data!.signing_secret;
    const rotated = await call('POST', `/webhooks/${hook.data!.id}/rotate`, { key: t.secret, body: {} });
    expect(rotated.status).toBe(200);
    const content = randomBytes(48).toString('base64');
    const sent = await t.resend.emails.send({
      from: t.from,
      to: 'delivered@resend.dev',
      subject: 'With a file',
      text: 'Attached.',
      attachments: [{ filename: 'a.bin', content }],
    });
    expect(sent.error).toBeNull();
    const attachments = await t.resend.emails.attachments.list({ emailId: sent.data!.id });
    const attachment = await t.resend.emails.attachments.get({
      emailId: sent.data!.id,
      id: attachments.data!.data[0]!.id,
    });
    const downloadUrl = attachment.data!.download_url;
    const contact = await t.resend.contacts.create({ email: 'reader@example.com' });
    const link = await call('POST', `/contacts/${contact.data!.id}/preferences-link`, { key: t.secret, body: {} });
    expect(link.status).toBe(200);
    // A refused body still gets logged: its password, and an API key pasted where a name goes, are not kept.
    const password = `pw-${randomBytes(8).toString('hex')}`;
    await call('POST', '/contacts', { key: t.secret, body: { email: 'x@example.com', password } });
    await call('POST', '/contacts', { key: t.secret, body: { email: 'y@example.com', first_name: t.secret } });
    const mailboxKey = `mmb_${randomBytes(24).toString('base64url')}`;
    await t.resend.contacts.create({ email: 'z@example.com', lastName: mailboxKey });

    const rows = await waitFor(
      () => storedLogs(t.team.id),
      (all) => all.filter((r) => r.endpoint === '/contacts' && r.method === 'POST').length >= 4,
      { what: 'the stored logs of every request', timeoutMs: 20_000 },
    );
    const stored = JSON.stringify(rows);
    const secrets = {
      given,
      made,
      read,
      rotated: rotated.json.signing_secret,
      content,
      download: downloadUrl.slice(downloadUrl.lastIndexOf('/') + 1),
      preferences: link.json.url.slice(link.json.url.lastIndexOf('/') + 1),
      password,
      key: t.secret,
      mailboxKey,
    };
    for (const [what, secret] of Object.entries(secrets)) {
      expect(typeof secret, what).toBe('string');
      expect(stored.includes(secret), what).toBe(false);
    }
    expect(stored).toContain('[redacted]');
    // Each row goes with DynamoDB TTL after the retention.
    for (const row of rows) expect(row.ttl).toBeCloseTo(Date.now() / 1000 + LOG_RETENTION_DAYS * 86_400, -3);
    // What is not secret stays: the endpoint, the attachment's name, the contact's address.
    expect(stored).toContain('a.bin');
    expect(stored).toContain('reader@example.com');
  });

  it('keeps no secret after a request to every route of the API, each carrying secrets in its body', async () => {
    const t = await newTeam();
    const planted = {
      password: `pw-${randomBytes(12).toString('hex')}`,
      apiKey: `ms_${randomBytes(24).toString('base64url')}`,
      mailboxKey: `mmb_${randomBytes(24).toString('base64url')}`,
      signing: `whsec_${randomBytes(24).toString('base64')}`,
    };
    const body = {
      name: 'every route',
      password: planted.password,
      note: planted.apiKey,
      first_name: planted.mailboxKey,
      signing_secret: planted.signing,
    };
    const answered: number[] = [];
    for (const route of REST_ROUTES) {
      const path = route.path.replace(/\{[^}]+\}/g, () => randomUUID());
      const res = await call(route.method, path, {
        key: t.secret,
        ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { body }),
      });
      answered.push(res.status);
    }
    expect(answered).not.toContain(500);
    // Every route a key authenticates is logged; link tokens, discovery documents and OAuth's own
    // endpoints take no key and belong to no team's log.
    const keyless =
      /^\/(preferences|unsubscribe|t|downloads)\/|^\/openapi\.json$|^\/\.well-known\/|^\/oauth\/(register|authorize|token|revoke)$/;
    const keyed = REST_ROUTES.filter((r) => !keyless.test(r.path));
    expect(keyed.length).toBeGreaterThan(100);
    const rows = await waitFor(
      () => storedLogs(t.team.id),
      (all) => all.length >= keyed.length,
      { what: 'a stored log of every route a key authenticates', timeoutMs: 30_000 },
    );
    const stored = JSON.stringify(rows);
    for (const [what, secret] of Object.entries({ ...planted, key: t.secret }))
      expect(stored.includes(secret), what).toBe(false);
  });

  it('forgets an erased address: the erase job rewrites earlier logs, and the erase request keeps none in its own', async () => {
    const { resend, secret, team } = await newTeam();
    const contact = await resend.contacts.create({ email: 'Forget.Me@example.com', firstName: 'Forget' });
    await resend.contacts.get({ id: contact.data!.id });
    // A request whose bodies the log keeps compressed (past 512 bytes), naming the address in them.
    await resend.emails.send({
      from: 'Acme <hi@unverified.example.com>',
      to: 'forget.me@example.com',
      subject: 'Hi',
      html: `<p>Dear forget.me@example.com</p>${'<p>Your account summary.</p>'.repeat(60)}`,
    });
    await logsUntil(resend, (all) => all.filter((r) => r.method === 'POST').length >= 2, 'the create and the send');
    const raw = await rawLogs(team.id);
    expect(raw.some((r) => r.endpoint === '/emails' && r.bodies instanceof Uint8Array)).toBe(true);
    expect(JSON.stringify(await storedLogs(team.id)).toLowerCase()).toContain('dear forget.me@example.com');

    const out = await call('POST', '/contacts/batch/remove', {
      key: secret,
      body: { emails: ['forget.me@example.com'], erase: true },
    });
    expect(out.status).toBe(200);
    const rows = await waitFor(
      () => storedLogs(team.id),
      (all) =>
        all.some((r) => r.endpoint === '/contacts/batch/remove') &&
        !JSON.stringify(all).toLowerCase().includes('forget.me@example.com'),
      { what: 'the logs without the erased address', timeoutMs: 15_000 },
    );
    expect(JSON.stringify(rows)).toContain('[erased]');
    expect(JSON.stringify(rows)).toContain('Forget');
  });
});
