import { describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { keys } from '@mailstack/core/table/keys';
import { updateTeam } from '@mailstack/core/domain/teams/update-team';
import { revokeApiKey } from '@mailstack/core/domain/api-keys/revoke-api-key';
import { byOperator } from '@mailstack/core/domain/api-keys/key-audit';
import { addSuppression } from '@mailstack/core/domain/suppressions/suppression-store';
import { calendarOf } from '@mailstack/core/domain/usage/get-usage';
import { getEmail } from '@mailstack/core/domain/emails/get-email';
import { createRelay } from '../../functions/smtp/relay.ts';
import { selfSignedCertificate } from '../../lib/local/certificate.ts';
import { local, ownLoopbackAddress, testDeps, afterLookupStaleness } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { eventsOf } from '../support/events.ts';
import { acceptedId, rawSession, relayTransport } from '../support/smtp.ts';
import { inboxEmails } from '../support/inbox.ts';
import { emailReaches } from '../support/wait.ts';

type Team = Awaited<ReturnType<typeof sendingTeam>>;

/** The SMTP error a refused send ends with: its full reply line and the command it answered. */
const refusal = async (send: Promise<unknown>) => {
  const error = await send.then(
    () => undefined,
    (e: any) => e,
  );
  if (!error) throw new Error('the relay accepted a message it should have refused');
  return {
    response: String(error.response ?? error.message),
    command: error.command as string | undefined,
    code: error.responseCode as number | undefined,
  };
};

/** A distinct client address per test, so failed-authentication windows never meet. */
/** A loopback address of the test's own among millions, so no other test's failed logins share its window. */
const clientAddress = ownLoopbackAddress;

const ATTACHMENT = Buffer.from('attached bytes');

describe('the SMTP relay', () => {
  it('accepts a message through STARTTLS and AUTH and stores the same email an API send stores', async () => {
    // Prepare
    const t = await sendingTeam();
    const subject = `Relay ${crypto.randomUUID()}`;
    const messageId = `<${crypto.randomUUID()}@${t.domain}>`;

    // Act
    const info = await relayTransport(t.secret).sendMail({
      from: t.from,
      to: 'Jane <delivered@resend.dev>',
      cc: 'success@simulator.amazonses.com',
      bcc: 'ooto@simulator.amazonses.com',
      replyTo: 'reply@example.com',
      subject,
      text: 'Hello',
      html: '<p>Hello</p>',
      messageId,
      headers: { 'X-Entity-Ref-ID': 'abc' },
      attachments: [{ filename: 'hello.txt', content: ATTACHMENT }],
    });
    const api = await t.resend.emails.send({
      from: t.from,
      to: 'Jane <delivered@resend.dev>',
      cc: 'success@simulator.amazonses.com',
      bcc: 'ooto@simulator.amazonses.com',
      replyTo: 'reply@example.com',
      subject,
      text: 'Hello',
      html: '<p>Hello</p>',
      headers: { 'X-Entity-Ref-ID': 'abc' },
      attachments: [{ filename: 'hello.txt', content: ATTACHMENT.toString('base64') }],
    });

    // Assess
    const id = acceptedId(info.response);
    const viaSmtp = await emailReaches(t.resend, id, ['delivered']);
    const viaApi = await emailReaches(t.resend, api.data!.id, ['delivered']);
    const comparable = ({ id: _id, created_at: _c, message_id: _m, ...rest }: typeof viaSmtp) => rest;
    expect(comparable(viaSmtp)).toEqual(comparable(viaApi));
    expect(viaSmtp).toMatchObject({
      to: ['Jane <delivered@resend.dev>'],
      cc: ['success@simulator.amazonses.com'],
      bcc: ['ooto@simulator.amazonses.com'],
    });
    // The client's Message-ID went to the provider, which wrote its own in its place (as SES does):
    // the email shows the one recipients saw.
    expect(viaSmtp.message_id).not.toBe(messageId);
    expect(viaSmtp.message_id).toMatch(/^<[^@>]+@email\.amazonses\.com>$/);
    const types = async (emailId: string) =>
      (await eventsOf(t.team.id)).filter((e) => e.data?.email_id === emailId).map((e) => e.type);
    expect(await types(id)).toEqual(await types(api.data!.id));
    const delivered = (await inboxEmails()).filter((m) => m.subject === subject);
    expect(delivered).toHaveLength(2);
    // The Bcc recipient is on the email, never in the message the provider received.
    for (const m of delivered) expect(JSON.stringify(m)).not.toContain('ooto@simulator.amazonses.com');
  }, 60_000);

  it('sends to the envelope recipients: a Bcc stays hidden and a header address outside the envelope receives nothing', async () => {
    const t = await sendingTeam();
    const info = await relayTransport(t.secret).sendMail({
      envelope: { from: `bounce@${t.domain}`, to: ['delivered@resend.dev', 'hidden@example.com'] },
      from: t.from,
      to: ['delivered@resend.dev', 'not-in-envelope@example.com'],
      subject: 'Envelope',
      text: 'x',
    });
    const { data } = await t.resend.emails.get(acceptedId(info.response));
    expect(data).toMatchObject({ to: ['delivered@resend.dev'], cc: null, bcc: ['hidden@example.com'] });
  });

  it.each([
    [
      'an unverified sender domain',
      'validation_error',
      '550 5.7.1',
      async (_t: Team) => ({ from: 'Acme <hello@unverified.example.net>' }),
    ],
    [
      'a look-alike subject',
      'validation_error',
      '550 5.7.1',
      async (t: Team) => ({ from: t.from, subject: 'Your P\u0430yPal account is limited' }),
    ],
    [
      'a header outside the allowlist',
      'validation_error',
      '550 5.7.1',
      async (t: Team) => ({ from: t.from, headers: { Precedence: 'bulk' } }),
    ],
    [
      'an inline cid: image',
      'validation_error',
      '550 5.7.1',
      async (t: Team) => ({
        from: t.from,
        html: '<img src="cid:logo">',
        attachments: [{ filename: 'logo.png', content: ATTACHMENT, cid: 'logo' }],
      }),
    ],
    [
      'a suppressed recipient',
      'all_recipients_suppressed',
      '550 5.7.1',
      async (t: Team) => {
        await addSuppression(testDeps(), {
          teamId: t.team.id,
          email: 'delivered@resend.dev',
          origin: 'manual',
          source: 'api',
        });
        return { from: t.from };
      },
    ],
    [
      'a suspended team',
      'team_suspended',
      '554 5.7.1',
      async (t: Team) => {
        await updateTeam(testDeps(), t.team.id, { status: 'suspended' });
        await afterLookupStaleness();
        return { from: t.from };
      },
    ],
    [
      'a paused team',
      'sending_paused',
      '554 5.7.1',
      async (t: Team) => {
        const d = testDeps();
        await d.tableStore.put({
          TableName: d.table,
          Item: {
            ...keys.deliverability.day(t.team.id, new Date().toISOString().slice(0, 10), 0),
            sent: 100,
            bounced: 30,
            complained: 0,
          },
        });
        await d.tableStore.update({
          TableName: d.table,
          Key: keys.team.item(t.team.id),
          UpdateExpression: 'SET sending_paused = :p',
          ExpressionAttributeValues: { ':p': { metric: 'bounce_rate', rate: 0.3, limit: 0.1, window_days: 7 } },
        });
        await afterLookupStaleness();
        return { from: t.from };
      },
    ],
    [
      'a spent daily quota (temporary)',
      'daily_quota_exceeded',
      '451 4.7.1',
      async (t: Team) => {
        const d = testDeps();
        await updateTeam(d, t.team.id, { plan: 'free' });
        await d.tableStore.put({
          TableName: d.table,
          Item: { ...keys.usage.day(t.team.id, calendarOf(Date.now()).day, 0), emails_sent: 450 },
        });
        await afterLookupStaleness();
        return { from: t.from };
      },
    ],
  ])('refuses %s at DATA with %s, %s and the API message', async (_case, name, reply, arrange) => {
    // Prepare
    const t = await sendingTeam();
    const mail = { to: 'delivered@resend.dev', subject: 'Refused', text: 'x', ...(await arrange(t)) };

    // Act
    const out = await refusal(relayTransport(t.secret).sendMail(mail));

    // Assess
    expect(out.command).toBe('DATA');
    expect(out.response).toMatch(new RegExp(`^${reply} ${name}: \\S`));
  });

  it("holds a new team's mail that imitates a bank for review, as the API does", async () => {
    const t = await sendingTeam();
    const info = await relayTransport(t.secret).sendMail({
      from: `PayPal Security <hello@${t.domain}>`,
      to: 'delivered@resend.dev',
      subject: 'Your account',
      text: 'x',
    });
    const id = acceptedId(info.response);
    expect((await getEmail(testDeps(), t.team.id, id)).status).toBe('held');
    expect((await t.resend.emails.get(id)).data?.last_event).toBe('queued');
  });

  it('refuses a domain-restricted key sending from another domain with 550 5.7.1 restricted_api_key', async () => {
    const t = await sendingTeam();
    const other = await t.resend.domains.create({ name: `other-${t.domain}` });
    await t.resend.domains.verify(other.data!.id);
    const restricted = await t.addKey('sending_access', other.data!.id);
    const out = await refusal(
      relayTransport(restricted.secret).sendMail({ from: t.from, to: 'delivered@resend.dev', subject: 'x', text: 'x' }),
    );
    expect(out.response).toMatch(/^550 5\.7\.1 restricted_api_key: /);
    const own = await relayTransport(restricted.secret).sendMail({
      from: `hello@other-${t.domain}`,
      to: 'delivered@resend.dev',
      subject: 'x',
      text: 'x',
    });
    expect(acceptedId(own.response)).toBeTruthy();
  });

  it('takes a sending-access key, AUTH LOGIN and the username mailstack', async () => {
    const t = await sendingTeam();
    const sending = await t.addKey('sending_access');
    const info = await relayTransport(sending.secret, { user: 'mailstack', authMethod: 'LOGIN' }).sendMail({
      from: t.from,
      to: 'delivered@resend.dev',
      subject: 'x',
      text: 'x',
    });
    expect((await t.resend.emails.get(acceptedId(info.response))).data?.subject).toBe('x');
  });

  it('refuses a 26 MiB message at DATA with 552 5.3.4 payload_too_large, advertising SIZE', async () => {
    const t = await sendingTeam();
    const session = await rawSession(local().smtp.port);
    await session.reply();
    expect(await session.command('EHLO client.example.com')).toMatch(/^250[- ]SIZE 26214400$/m);
    session.end();
    const out = await refusal(
      relayTransport(t.secret).sendMail({
        from: t.from,
        to: 'delivered@resend.dev',
        subject: 'Big',
        text: 'x',
        // 19.5 MiB of bytes: 26 MiB once base64-encoded in the message.
        attachments: [{ filename: 'big.bin', content: Buffer.alloc(19.5 * 1024 * 1024, 7) }],
      }),
    );
    expect(out.command).toBe('DATA');
    expect(out.response).toMatch(/^552 5\.3\.4 payload_too_large: /);
  }, 60_000);

  it('caps recipients at 50 with 452 4.5.3 and sends to the ones accepted', async () => {
    const t = await sendingTeam();
    const to = Array.from({ length: 51 }, (_, n) => `reader${n}@example.com`);
    const info = await relayTransport(t.secret).sendMail({ from: t.from, to, subject: 'Many', text: 'x' });
    expect(info.rejected).toEqual(['reader50@example.com']);
    expect(String((info as any).rejectedErrors?.[0]?.response)).toMatch(/^452 4\.5\.3 validation_error: /);
    expect((await t.resend.emails.get(acceptedId(info.response))).data?.to).toHaveLength(50);
  });

  describe('idempotency', () => {
    it('dedupes a retried message with the same Idempotency-Key header: one email, the same id', async () => {
      const t = await sendingTeam();
      const key = crypto.randomUUID();
      const mail = {
        from: t.from,
        to: 'delivered@resend.dev',
        subject: `Once ${key}`,
        text: 'x',
        headers: { 'Idempotency-Key': key },
      };
      const first = acceptedId((await relayTransport(t.secret).sendMail(mail)).response);
      const again = acceptedId((await relayTransport(t.secret).sendMail(mail)).response);
      expect(again).toBe(first);
      const listed = await t.resend.emails.list();
      expect(listed.data!.data.filter((e) => e.subject === mail.subject)).toHaveLength(1);
      const other = await refusal(relayTransport(t.secret).sendMail({ ...mail, text: 'another body' }));
      expect(other.response).toMatch(/^554 5\.6\.0 invalid_idempotent_request: /);
    });

    it("honours the reference service's Resend-Idempotency-Key header too", async () => {
      const t = await sendingTeam();
      const mail = {
        from: t.from,
        to: 'delivered@resend.dev',
        subject: 'Once',
        text: 'x',
        headers: { 'Resend-Idempotency-Key': crypto.randomUUID() },
      };
      const first = acceptedId((await relayTransport(t.secret).sendMail(mail)).response);
      expect(acceptedId((await relayTransport(t.secret).sendMail(mail)).response)).toBe(first);
    });
  });

  describe('authentication', () => {
    it('refuses AUTH before STARTTLS with 530 5.7.0, and MAIL before AUTH with 530 5.7.0 missing_api_key', async () => {
      const t = await sendingTeam();
      const session = await rawSession(local().smtp.port, clientAddress());
      expect(await session.reply()).toMatch(/^220 /);
      const ehlo = await session.command('EHLO client.example.com');
      expect(ehlo).toMatch(/STARTTLS/);
      const plain = Buffer.from(`\0resend\0${t.secret}`).toString('base64');
      expect(await session.command(`AUTH PLAIN ${plain}`)).toMatch(/^530 5\.7\.0 Must issue a STARTTLS command first/);
      expect(await session.command('MAIL FROM:<a@example.com>')).toMatch(/^530 5\.7\.0 missing_api_key: /);
      session.end();
    });

    it.each([
      ['a wrong password', async (_t: Team) => ({ pass: 'ms_wrong' })],
      ['a wrong username', async (t: Team) => ({ pass: t.secret, user: 'admin' })],
      [
        'a revoked key',
        async (t: Team) => {
          await revokeApiKey(testDeps(), t.team.id, t.key.id, byOperator('test setup'));
          await afterLookupStaleness();
          return { pass: t.secret };
        },
      ],
    ])('refuses %s with 535 5.7.8 invalid_api_key', async (_case, arrange) => {
      const t = await sendingTeam();
      const { pass, user } = (await arrange(t)) as { pass: string; user?: string };
      const out = await refusal(
        relayTransport(pass, { localAddress: clientAddress(), ...(user ? { user } : {}) }).sendMail({
          from: t.from,
          to: 'delivered@resend.dev',
          subject: 'x',
          text: 'x',
        }),
      );
      expect(out.response).toMatch(/^535 5\.7\.8 invalid_api_key: /);
    });

    it('refuses the next message of an open session once its key is revoked', async () => {
      const t = await sendingTeam();
      const pooled = relayTransport(t.secret, { localAddress: clientAddress(), pool: true });
      // Two messages: the first marks the key used (which drops the relay's copy), the second leaves a fresh copy.
      for (const subject of ['one', 'two'])
        acceptedId((await pooled.sendMail({ from: t.from, to: 'delivered@resend.dev', subject, text: 'x' })).response);
      await revokeApiKey(testDeps(), t.team.id, t.key.id, byOperator('test setup'));
      const out = await refusal(
        pooled.sendMail({ from: t.from, to: 'delivered@resend.dev', subject: 'three', text: 'x' }),
      );
      expect(out.response).toMatch(/^535 5\.7\.8 invalid_api_key: /);
      pooled.close();
    });

    it('shares the failed-authentication window with the HTTP API: after 20 API failures an SMTP login is refused with 451 4.7.1', async () => {
      const t = await sendingTeam();
      const address = clientAddress();
      const left = 60 - ((Date.now() / 1000) % 60);
      if (left < 15) await new Promise((r) => setTimeout(r, left * 1000 + 200));
      for (let n = 0; n < 20; n++) {
        const status = await new Promise<number>((resolve, reject) => {
          const url = new URL('/domains', local().baseUrl);
          const req = request(
            {
              host: url.hostname,
              port: url.port,
              path: url.pathname,
              headers: { authorization: 'Bearer ms_wrong' },
              localAddress: address,
            },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on('error', reject);
          req.end();
        });
        expect(status).toBe(401);
      }
      const out = await refusal(
        relayTransport('ms_wrong', { localAddress: address }).sendMail({
          from: t.from,
          to: 'delivered@resend.dev',
          subject: 'x',
          text: 'x',
        }),
      );
      expect(out.response).toMatch(/^451 4\.7\.1 rate_limit_exceeded: .*Retry in \d+ s\./);
    });
  });

  describe('connections', () => {
    it('limits sessions per client address and closes idle and over-long sessions with 421', async () => {
      // Prepare: a relay of its own with tight limits, on the test run's engines.
      const tls = await selfSignedCertificate();
      const relay = createRelay(testDeps(), {
        tls,
        maxConnectionsPerIp: 2,
        idleTimeoutSeconds: 1,
        sessionTimeoutSeconds: 3,
      });
      const port = await relay.listen(0, '127.0.0.1');
      try {
        const address = clientAddress();
        const [a, b, c] = [
          await rawSession(port, address),
          await rawSession(port, address),
          await rawSession(port, address),
        ];
        expect(await a.reply()).toMatch(/^220 /);
        expect(await b.reply()).toMatch(/^220 /);

        // Act + Assess: the third is turned away, the idle ones are closed.
        expect(await c.reply()).toMatch(/^421 4\.7\.0 rate_limit_exceeded: 2 sessions are already open/);
        expect(await a.reply(5_000)).toMatch(/^421 /);
        await a.closed;

        const busy = await rawSession(port, clientAddress());
        expect(await busy.reply()).toMatch(/^220 /);
        const started = Date.now();
        let last = '';
        while (!/^421/.test(last) && Date.now() - started < 8_000) {
          await new Promise((r) => setTimeout(r, 400));
          last = await busy.command('NOOP');
        }
        expect(last).toMatch(/^421 4\.4\.2 Session time limit/);
        expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
        b.end();
      } finally {
        await relay.close();
      }
    }, 30_000);
  });
});
