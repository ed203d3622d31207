import { describe, expect, it } from 'vitest';
import { ROUTES, routeKey } from '../../functions/routes.ts';
import { call, local, newTeam } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { inboxMail } from '../support/inbox.ts';

/**
 * Request encodings of the official SDKs other than Node's and Python's, sent raw: each must be
 * read as the reference reads it.
 */

const bytesOf = (content: unknown): Buffer =>
  typeof content === 'string' ? Buffer.from(content, 'base64') : Buffer.from((content as { data: number[] }).data);

describe('attachment content as bytes', () => {
  it('accepts content as an array of byte values (the Go SDK) or a Node.js Buffer in JSON, on a send and in a batch, and delivers the same bytes', async () => {
    const t = await sendingTeam();
    const file = Buffer.from('%PDF-1.4 \u00e9\u0000\u00ff binary');
    const subject = `Bytes ${crypto.randomUUID()}`;
    const sent = await call('POST', '/emails', {
      key: t.secret,
      body: {
        from: t.from,
        to: ['ada@example.com'],
        subject,
        text: 'x',
        attachments: [{ content: [...file], filename: 'invoice.pdf' }],
      },
    });
    expect(sent.status, sent.text).toBe(200);
    const mail = await inboxMail(subject, 30_000);
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0].filename).toBe('invoice.pdf');
    expect(bytesOf(mail.attachments[0].content)).toEqual(file);

    const batchSubject = `Batch bytes ${crypto.randomUUID()}`;
    const batch = await call('POST', '/emails/batch', {
      key: t.secret,
      body: [
        {
          from: t.from,
          to: ['ada@example.com'],
          subject: batchSubject,
          text: 'x',
          attachments: [
            { content: { type: 'Buffer', data: [...file] }, filename: 'a.bin', path: '', content_type: '' },
          ],
        },
        {
          from: t.from,
          to: ['bob@example.com'],
          subject: `${batchSubject} 2`,
          text: 'x',
          attachments: [{ content: file.toString('base64'), filename: 'a.bin' }],
        },
      ],
    });
    expect(batch.status, batch.text).toBe(200);
    const [one, two] = [await inboxMail(batchSubject, 30_000), await inboxMail(`${batchSubject} 2`, 30_000)];
    expect(bytesOf(one.attachments[0].content)).toEqual(file);
    expect(bytesOf(two.attachments[0].content)).toEqual(file);
  }, 40_000);

  it('refuses a bad byte array with 422 naming the field and the value, on a send and in a batch', async () => {
    const t = await sendingTeam();
    const refused = await call('POST', '/emails', {
      key: t.secret,
      body: {
        from: t.from,
        to: 'ada@example.com',
        subject: 'S',
        text: 'x',
        attachments: [{ filename: 'a.bin', content: [1, 2, 300] }],
      },
    });
    expect(refused.status).toBe(422);
    expect(refused.json).toMatchObject({
      name: 'validation_error',
      message: expect.stringContaining('`attachments[0].content[2]` is 300'),
    });
    const batch = await call('POST', '/emails/batch', {
      key: t.secret,
      headers: { 'x-batch-validation': 'permissive' },
      body: [
        {
          from: t.from,
          to: 'ada@example.com',
          subject: 'S',
          text: 'x',
          attachments: [{ filename: 'a.bin', content: [104, 105] }],
        },
        {
          from: t.from,
          to: 'ada@example.com',
          subject: 'S',
          text: 'x',
          attachments: [{ filename: 'a.bin', content: ['a'] }],
        },
      ],
    });
    expect(batch.status, batch.text).toBe(200);
    expect(batch.json.data).toHaveLength(1);
    expect(batch.json.errors).toEqual([{ index: 1, message: expect.stringContaining('`attachments[0].content[0]`') }]);
  });

  it('caps byte-array attachments by their decoded size, as base64 ones: 1,000,000 bytes on free', async () => {
    const t = await sendingTeam({ plan: 'free' });
    const over = new Array(1_000_001).fill(65);
    const refused = await call('POST', '/emails', {
      key: t.secret,
      body: {
        from: t.from,
        to: 'ada@example.com',
        subject: 'S',
        text: 'x',
        attachments: [{ filename: 'big.bin', content: over }],
      },
    });
    expect(refused.status).toBe(422);
    expect(refused.json.message).toContain('1000000 bytes');
    const fits = await call('POST', '/emails', {
      key: t.secret,
      body: {
        from: t.from,
        to: 'ada@example.com',
        subject: 'S',
        text: 'x',
        attachments: [{ filename: 'big.bin', content: over.slice(1) }],
      },
    });
    expect(fits.status, fits.text).toBe(200);
  });
});

describe('the Laravel transport of the PHP SDK', () => {
  it('reads a body sent as null as the body left out, on a send and in a batch, and still refuses a send with no body', async () => {
    // Prepare: the body resend-laravel builds for an HTML-only Mailable (every field present, the missing body null).
    const t = await sendingTeam();
    const subject = `Laravel ${crypto.randomUUID()}`;
    const mailable = {
      bcc: [],
      cc: [],
      from: t.from,
      headers: [],
      html: '<p>Hello</p>',
      reply_to: [],
      subject,
      tags: [],
      text: null,
      to: ['ada@example.com'],
      attachments: [],
    };

    // Act
    const htmlOnly = await call('POST', '/emails', { key: t.secret, body: mailable });
    const textOnly = await call('POST', '/emails', { key: t.secret, body: { ...mailable, html: null, text: 'Hello' } });
    const batch = await call('POST', '/emails/batch', { key: t.secret, body: [mailable] });
    const neither = await call('POST', '/emails', { key: t.secret, body: { ...mailable, html: null } });

    // Assess
    expect(htmlOnly.status, htmlOnly.text).toBe(200);
    expect(textOnly.status, textOnly.text).toBe(200);
    expect(batch.status, batch.text).toBe(200);
    const read = await call('GET', `/emails/${htmlOnly.json.id}`, { key: t.secret });
    expect(read.json).toMatchObject({ html: '<p>Hello</p>', text: null });
    expect((await call('GET', `/emails/${textOnly.json.id}`, { key: t.secret })).json).toMatchObject({
      html: null,
      text: 'Hello',
    });
    expect(neither.status).toBe(422);
    expect(neither.json).toMatchObject({ name: 'validation_error', message: expect.stringContaining('html') });
  });
});

describe('base URLs with a trailing slash', () => {
  it('answers every route of the manifest reached as `//path` (and with doubled slashes inside) as it answers `/path`', async () => {
    const t = await newTeam();
    const id = '01a00000-0000-7000-8000-0000000000aa';
    const answer = (r: Awaited<ReturnType<typeof call>>) => ({
      status: r.status,
      name: r.json?.name,
      type: r.headers.get('content-type')?.split(';')[0],
    });
    for (const route of ROUTES) {
      const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) => (name === 'token' ? 'not-a-token' : id));
      const body = route.method === 'GET' ? undefined : {};
      const plain = await call(route.method, path, { key: t.secret, ...(body ? { body } : {}) });
      for (const doubled of [`/${path}`, path.replace(/\//g, '//')]) {
        const out = await call(route.method, doubled, { key: t.secret, ...(body ? { body } : {}) });
        expect(answer(out), `${routeKey(route)} as ${doubled}: ${out.text.slice(0, 200)}`).toEqual(answer(plain));
      }
    }
    // A real read through the doubled path answers the resource.
    const segment = await call('POST', '//segments', { key: t.secret, body: { name: 'Readers' } });
    expect(segment.status, segment.text).toBe(201);
    const read = await call('GET', `//segments//${segment.json.id}`, { key: t.secret });
    expect(read.json).toMatchObject({ object: 'segment', id: segment.json.id, name: 'Readers' });
    // What names no route still answers through the catalog, naming the path as read.
    const missing = await call('GET', '//no-such-thing', { key: t.secret });
    expect(missing.json).toEqual({
      statusCode: 404,
      name: 'not_found',
      message: 'The requested endpoint does not exist: GET /no-such-thing.',
    });
  }, 120_000);

  it("serves the dashboard host's pages and its mailbox agent API at doubled slashes too", async () => {
    for (const [plain, doubled] of [
      ['/sign-in', '//sign-in'],
      ['/api/mailbox-agent/openapi.json', '//api//mailbox-agent/openapi.json'],
    ] as const) {
      const [a, b] = [await fetch(`${local().dashboardUrl}${plain}`), await fetch(`${local().dashboardUrl}${doubled}`)];
      expect(b.status, doubled).toBe(200);
      expect(a.status, plain).toBe(200);
      expect(b.headers.get('content-type')).toBe(a.headers.get('content-type'));
      if (plain.endsWith('.json')) expect(await b.json()).toEqual(await a.json());
      else expect(await b.text()).toContain('<form');
    }
  });
});
