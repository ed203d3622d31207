import { describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { local, ownLoopbackAddress } from '../support/local.ts';

/** A request from a loopback address of this test's own, so its failures are counted apart from every other test's. */
const fromAddress = (base: string, localAddress: string, method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
  new Promise<{ status: number; headers: Record<string, unknown>; json: any }>((resolve, reject) => {
    const url = new URL(path, base);
    const req = request({ host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, method, localAddress, headers: { ...headers, ...(body ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        let json: any;
        try { json = JSON.parse(text); } catch { json = undefined; }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });

/** Waits until at least `seconds` remain in the current minute, so a fixed-window test does not straddle two windows. */
const awaitFreshWindow = async (seconds: number) => {
  const left = 60 - (Date.now() / 1000) % 60;
  if (left < seconds) await new Promise((r) => setTimeout(r, left * 1000 + 200));
};

/** Sends `count` requests one after another and returns their statuses, and the last answer. */
const attempts = async (count: number, send: () => ReturnType<typeof fromAddress>) => {
  const statuses: number[] = [];
  let last: Awaited<ReturnType<typeof fromAddress>> | undefined;
  for (let i = 0; i < count; i++) {
    last = await send();
    statuses.push(last.status);
  }
  return { statuses, last: last! };
};

const MCP_BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

describe('more than 20 failed authentications a minute from one address give 429 with Retry-After (spec §5 rule 5, §8), on every surface', () => {
  it('on the mailbox agent API: a wrong mailbox key is counted, a missing one is not, and the API keys\' window is apart', async () => {
    await awaitFreshWindow(15);
    const address = ownLoopbackAddress();
    const wrong = await attempts(21, () => fromAddress(local().dashboardUrl, address, 'GET', '/api/mailbox-agent/items?folder=inbox', { authorization: 'Bearer mmb_wrong' }));
    expect(wrong.statuses).toEqual([...Array(20).fill(401), 429]);
    expect(wrong.last.json).toMatchObject({ statusCode: 429, name: 'rate_limit_exceeded' });
    expect(Number(wrong.last.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // The same address still gets its 401 on the HTTP API (that window counts API keys).
    expect((await fromAddress(local().baseUrl, address, 'GET', '/domains', { authorization: 'Bearer ms_wrong' })).status).toBe(401);

    const other = ownLoopbackAddress();
    const missing = await attempts(25, () => fromAddress(local().dashboardUrl, other, 'GET', '/api/mailbox-agent/items?folder=inbox'));
    expect(new Set(missing.statuses)).toEqual(new Set([401]));
  }, 60_000);

  it('on a mailbox MCP endpoint', async () => {
    await awaitFreshWindow(15);
    const address = ownLoopbackAddress();
    const wrong = await attempts(21, () => fromAddress(local().baseUrl, address, 'POST', `/mcp/${randomUUID()}`, { authorization: 'Bearer mmb_wrong', accept: 'application/json, text/event-stream' }, MCP_BODY));
    expect(wrong.statuses).toEqual([...Array(20).fill(401), 429]);
    expect(wrong.last.json).toMatchObject({ statusCode: 429, name: 'rate_limit_exceeded' });
    expect(Number(wrong.last.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it('on the hosted MCP server: an invalid access token is counted, a request without one (a client\'s first step to sign in) is not', async () => {
    await awaitFreshWindow(15);
    const address = ownLoopbackAddress();
    const wrong = await attempts(21, () => fromAddress(local().baseUrl, address, 'POST', '/mcp', { authorization: 'Bearer not-a-token', accept: 'application/json, text/event-stream' }, MCP_BODY));
    expect(wrong.statuses).toEqual([...Array(20).fill(401), 429]);
    expect(wrong.last.json).toMatchObject({ statusCode: 429, name: 'rate_limit_exceeded' });
    expect(Number(wrong.last.headers['retry-after'])).toBeGreaterThanOrEqual(1);

    const other = ownLoopbackAddress();
    const missing = await attempts(25, () => fromAddress(local().baseUrl, other, 'POST', '/mcp', { accept: 'application/json, text/event-stream' }, MCP_BODY));
    expect(new Set(missing.statuses)).toEqual(new Set([401]));
  }, 60_000);
});
