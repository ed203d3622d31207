import { describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { MAX_BODY_BYTES } from '@mailstack/core/limits';
import { call, fromAddress, local, newTeam, ownLoopbackAddress } from '../support/local.ts';
import { waitFor } from '../support/wait.ts';

/** A raw request whose body is written in chunks; resolves with the answer's status and body, or the error the socket ended with. */
const rawPost = (
  path: string,
  key: string,
  chunks: { count: number; size: number },
  headers: Record<string, string> = {},
) =>
  new Promise<{ status?: number; body?: string; error?: string; written: number }>((resolve) => {
    const url = new URL(path, local().baseUrl);
    let written = 0;
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode, body, written }));
        res.on('error', (e) => resolve({ status: res.statusCode, body, error: e.message, written }));
      },
    );
    req.on('error', (e) => resolve({ error: (e as NodeJS.ErrnoException).code ?? e.message, written }));
    const piece = Buffer.alloc(chunks.size, 'a');
    const pump = () => {
      while (written < chunks.count) {
        written++;
        if (!req.write(piece)) return req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });

describe('the local host stays up under hostile clients', () => {
  it('refuses a declared length past 25 MiB with 413 payload_too_large before reading it', async () => {
    const t = await newTeam();
    const res = await rawPost(
      '/emails',
      t.secret,
      { count: 1, size: 1024 },
      { 'content-length': String(MAX_BODY_BYTES + 1) },
    );
    // The host answers at once and closes; the client may see the answer or the close first.
    if (res.status !== undefined) {
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body!)).toMatchObject({ name: 'payload_too_large' });
    }
    expect((await call('GET', '/domains', { key: t.secret })).status).toBe(200);
  });

  it('refuses a streamed body that grows past the ceiling with 413, reading no further, and keeps serving', async () => {
    const t = await newTeam();
    // 40 MiB offered in 1 MiB chunks without a declared length (chunked).
    const res = await rawPost('/emails', t.secret, { count: 40, size: 1024 * 1024 });
    expect(res.written).toBeLessThan(40);
    if (res.status !== undefined) {
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body!)).toMatchObject({ name: 'payload_too_large' });
    } else {
      expect(res.error).toMatch(/EPIPE|ECONNRESET|socket hang up/);
    }
    expect((await call('GET', '/domains', { key: t.secret })).status).toBe(200);
  });

  it('survives clients that abort mid-body, over and over', async () => {
    const t = await newTeam();
    await Promise.all(
      Array.from(
        { length: 10 },
        () =>
          new Promise<void>((resolve) => {
            const url = new URL('/contacts', local().baseUrl);
            const req = request({
              host: url.hostname,
              port: url.port,
              path: url.pathname,
              method: 'POST',
              headers: {
                authorization: `Bearer ${t.secret}`,
                'content-type': 'application/json',
                'content-length': '100000',
              },
            });
            req.on('error', () => resolve());
            req.write('{"email": "half');
            setTimeout(() => {
              req.destroy();
              resolve();
            }, 50);
          }),
      ),
    );
    expect((await call('GET', '/domains', { key: t.secret })).status).toBe(200);
  });

  it('refuses a request line and headers past 10,240 bytes with 431, as HTTP API does, and answers one just under from the catalog', async () => {
    const t = await newTeam();
    // 1,000 percent-encoded characters: 9,000 bytes of path, with the headers under 10,240.
    const under = encodeURIComponent('€'.repeat(1000));
    const over = encodeURIComponent('€'.repeat(1200));
    const fits = await call('GET', `/contacts/${under}`, { key: t.secret });
    // API Gateway's own refusal, outside the API's document: read over a raw request.
    const refused = await fromAddress(ownLoopbackAddress(), 'POST', `/contacts/${over}/segments/${over}`, {
      headers: { authorization: `Bearer ${t.secret}` },
      body: '{}',
    });
    expect(fits.status).toBe(404);
    expect(fits.json).toMatchObject({ name: 'not_found' });
    expect(refused.status).toBe(431);
    expect(refused.json).toEqual({ message: 'Request Header Fields Too Large' });
  });

  it('delivers rawPath percent-decoded, as HTTP API does: the request log names /emails/a%b for a request to /emails/a%25b', async () => {
    const t = await newTeam();
    const odd = `req-${crypto.randomUUID()}%25x%2Fy`;
    expect((await call('GET', `/emails/${odd}`, { key: t.secret })).status).toBe(404);
    const rows = await waitFor(
      async () => (await t.resend.logs.list({ limit: 100 })).data?.data ?? [],
      (all) => all.some((r) => r.endpoint.includes('req-')),
      { what: "the odd path's request log" },
    );
    expect(rows.find((r) => r.endpoint.includes('req-'))!.endpoint).toBe(`/emails/${decodeURIComponent(odd)}`);
  });
});

describe('the local inbox', () => {
  it('shows email HTML only in a sandboxed srcdoc frame (no scripts, no same origin) under a strict Content-Security-Policy', async () => {
    const res = await fetch(local().inboxUrl);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/script-src 'nonce-[^']+'/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    const page = await res.text();
    expect(page).toContain("frame.setAttribute('sandbox', '')");
    expect(page).toContain('frame.srcdoc = m.body.html');
    expect(page).not.toMatch(/allow-scripts|allow-same-origin|innerHTML|contentDocument/);
    // The engine's JSON store is still served for tools and tests.
    expect((await fetch(`${local().inboxUrl}/store`)).status).toBe(200);
  });
});
