import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { awaitFreshWindow, fromAddress, local, ownLoopbackAddress } from '../support/local.ts';

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

/** Retry-After in whole seconds (spec §8): 1 to 60 within a minute's window, and the same figure in the message when it names one. */
const expectWholeSeconds = (answer: Awaited<ReturnType<typeof fromAddress>>) => {
  const header = String(answer.headers['retry-after']);
  expect(header).toMatch(/^[1-9]\d*$/);
  expect(Number(header)).toBeLessThanOrEqual(60);
  for (const [, seconds] of String(answer.json?.message).matchAll(/([\d.]+) seconds/g)) expect(seconds).toBe(header);
};

const MCP_BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

describe('more than 20 failed authentications a minute from one address give 429 with Retry-After (spec §5 rule 5, §8), on every surface', () => {
  it("on the mailbox agent API: a wrong mailbox key is counted, a missing one is not, and the API keys' window is apart", async () => {
    await awaitFreshWindow(15);
    const address = ownLoopbackAddress();
    const wrong = await attempts(21, () =>
      fromAddress(address, 'GET', '/api/mailbox-agent/items?folder=inbox', {
        base: local().dashboardUrl,
        headers: { authorization: 'Bearer mmb_wrong' },
      }),
    );
    expect(wrong.statuses).toEqual([...Array(20).fill(401), 429]);
    expect(wrong.last.json).toMatchObject({ statusCode: 429, name: 'rate_limit_exceeded' });
    expectWholeSeconds(wrong.last);
    // The same address still gets its 401 on the HTTP API (that window counts API keys).
    expect(
      (await fromAddress(address, 'GET', '/domains', { headers: { authorization: 'Bearer ms_wrong' } })).status,
    ).toBe(401);

    const other = ownLoopbackAddress();
    const missing = await attempts(25, () =>
      fromAddress(other, 'GET', '/api/mailbox-agent/items?folder=inbox', { base: local().dashboardUrl }),
    );
    expect(new Set(missing.statuses)).toEqual(new Set([401]));
  }, 60_000);

  it('on a mailbox MCP endpoint', async () => {
    await awaitFreshWindow(15);
    const address = ownLoopbackAddress();
    const wrong = await attempts(21, () =>
      fromAddress(address, 'POST', `/mcp/${randomUUID()}`, {
        headers: { authorization: 'Bearer mmb_wrong', accept: 'application/json, text/event-stream' },
        body: MCP_BODY,
      }),
    );
    expect(wrong.statuses).toEqual([...Array(20).fill(401), 429]);
    expect(wrong.last.json).toMatchObject({ statusCode: 429, name: 'rate_limit_exceeded' });
    expectWholeSeconds(wrong.last);
  }, 60_000);

  it("on the hosted MCP server: an invalid access token is counted, a request without one (a client's first step to sign in) is not", async () => {
    await awaitFreshWindow(15);
    const address = ownLoopbackAddress();
    const wrong = await attempts(21, () =>
      fromAddress(address, 'POST', '/mcp', {
        headers: { authorization: 'Bearer not-a-token', accept: 'application/json, text/event-stream' },
        body: MCP_BODY,
      }),
    );
    expect(wrong.statuses).toEqual([...Array(20).fill(401), 429]);
    expect(wrong.last.json).toMatchObject({ statusCode: 429, name: 'rate_limit_exceeded' });
    expectWholeSeconds(wrong.last);

    const other = ownLoopbackAddress();
    const missing = await attempts(25, () =>
      fromAddress(other, 'POST', '/mcp', {
        headers: { accept: 'application/json, text/event-stream' },
        body: MCP_BODY,
      }),
    );
    expect(new Set(missing.statuses)).toEqual(new Set([401]));
  }, 60_000);
});
