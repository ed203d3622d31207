import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { readConfig } from '@mailstack/core/runtime/config';
import { createDeps } from '@mailstack/core/runtime/deps';
import { TOOLS } from '../../functions/mcp/tools/index.ts';
import { TOOL_SCOPES } from '../../functions/mcp/tool.ts';
import { createGrant } from '@mailstack/core/domain/oauth/create-grant';
import { revokeGrant } from '@mailstack/core/domain/oauth/grant';
import { issueTokens } from '@mailstack/core/domain/oauth/tokens';
import { mcpResourceUrl } from '@mailstack/core/domain/oauth/index';
import { SCOPES } from '@mailstack/core/domain/oauth/scopes';
import { call, local, newTeam, testDeps } from '../support/local.ts';
import { mcpHarness, resultJson, scopeRefusal } from '../support/mcp.ts';

const mcp = mcpHarness();
const ALL_SCOPES = [...TOOL_SCOPES];
const names = (tools: readonly { name: string }[]) => tools.map((t) => t.name).sort();

describe('hosted MCP server: tools by scope', () => {
  it('lists only the tools the scopes allow, and refuses a call to one outside them with the 403 step-up challenge and the REST error shape', async () => {
    const reader = await mcp.signIn(['emails:read']);
    const listed = await reader.client.listTools();
    expect(names(listed.tools)).toEqual(names(TOOLS.filter((t) => t.scope === 'emails:read')));
    expect(names(listed.tools)).toEqual([
      'get_email',
      'get_email_attachment',
      'get_email_metrics',
      'get_log',
      'get_usage',
      'list_email_attachments',
      'list_emails',
      'list_logs',
    ]);
    expect(listed.tools.find((t) => t.name === 'list_emails')).toMatchObject({
      description: expect.stringMatching(/newest first/),
      inputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
    });

    const args = { from: reader.from, to: 'delivered@resend.dev', subject: 'not allowed', text: 'x' };
    await expect(reader.client.callTool({ name: 'send_email', arguments: args })).rejects.toMatchObject(
      scopeRefusal('emails:send'),
    );
    // The step-up challenge (MCP 2025-11-25 authorization): 403 insufficient_scope naming the scopes to ask for, those granted and the one needed.
    const refused = await mcp.post(reader.token, {
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'send_email', arguments: args },
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toMatch(
      new RegExp(
        `^Bearer error="insufficient_scope", scope="emails:read emails:send", resource_metadata="${local().baseUrl.replace(/[.]/g, '\\.')}/\\.well-known/oauth-protected-resource", error_description="send_email needs the`,
      ),
    );
    expect(await refused.json()).toEqual({
      statusCode: 403,
      name: 'forbidden',
      message: expect.stringContaining('`emails:send` scope'),
    });
    // Nothing was sent.
    expect((await reader.resend.emails.list()).data?.data).toEqual([]);

    const everything = await mcp.signIn(ALL_SCOPES);
    expect(names((await everything.client.listTools()).tools)).toEqual(names(TOOLS));
    // A tool the server does not have is the protocol's invalid-params error, not a tool result.
    await expect(everything.client.callTool({ name: 'mint_api_key', arguments: {} })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringContaining('Unknown tool: `mint_api_key`'),
    });
    const raw = await mcp.post(everything.token, {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'mint_api_key', arguments: {} },
    });
    expect(raw.status).toBe(200);
    expect(await raw.json()).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32602, message: expect.stringContaining('tools/list') },
    });
  });

  it('holds a person to their role: a member granted domains:write still cannot add a domain', async () => {
    const member = await mcp.signIn(['domains:write', 'domains:read'], { role: 'member' });
    const refused = await member.client.callTool({
      name: 'create_domain',
      arguments: { name: `${randomUUID().slice(0, 8)}.example.com` },
    });
    expect(refused.isError).toBe(true);
    expect(resultJson(refused)).toEqual({
      statusCode: 403,
      name: 'forbidden',
      message: expect.stringContaining('(member) does not allow domains:write'),
    });
    expect((await member.client.callTool({ name: 'list_domains', arguments: {} })).isError).toBeFalsy();
    // A token whose person is not (or no longer) a member of its team is no token at all.
    const stranger = await mcp.signIn(['domains:read'], { connect: false });
    mcp.tokens.set('stranger-token', { ...member.principal, userId: stranger.user.id });
    const refused401 = await mcp.post('stranger-token', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(refused401.status).toBe(401);
    expect(refused401.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata=/);
  });
});

describe('hosted MCP server: tools run the REST use cases', () => {
  it('sends with send_email an email the REST API then reads, and get_email answers what GET /emails/{id} answers', async () => {
    const agent = await mcp.signIn(['emails:send', 'emails:read']);
    const sent = await agent.client.callTool({
      name: 'send_email',
      arguments: {
        from: agent.from,
        to: ['delivered@resend.dev'],
        subject: 'Sent by an agent',
        text: 'Hello from MCP',
        tags: [{ name: 'via', value: 'mcp' }],
      },
    });
    expect(sent.isError).toBeFalsy();
    const { id } = resultJson(sent);
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const read = await agent.resend.emails.get(id);
    expect(read.error).toBeNull();
    expect(read.data).toMatchObject({
      id,
      subject: 'Sent by an agent',
      to: ['delivered@resend.dev'],
      text: 'Hello from MCP',
    });
    expect(read.data!.from).toBe(agent.from);

    const viaTool = resultJson(await agent.client.callTool({ name: 'get_email', arguments: { id } }));
    const viaRest = await call('GET', `/emails/${id}`, { key: agent.secret });
    expect({ ...viaTool, last_event: undefined }).toEqual({ ...viaRest.json, last_event: undefined });

    const listed = resultJson(await agent.client.callTool({ name: 'list_emails', arguments: { limit: 5 } }));
    expect(listed).toMatchObject({ object: 'list', has_more: false, data: [expect.objectContaining({ id })] });
  });

  it('answers a refused call with isError and the same statusCode, name and message as the REST route', async () => {
    const agent = await mcp.signIn(ALL_SCOPES);
    const other = await mcp.signIn(['emails:send']);
    const theirs = resultJson(
      await other.client.callTool({
        name: 'send_email',
        arguments: { from: other.from, to: 'delivered@resend.dev', subject: 'theirs', text: 'x' },
      }),
    ).id;

    // Tenancy: another team's email is not found, in the same words.
    const tool = await agent.client.callTool({ name: 'get_email', arguments: { id: theirs } });
    const rest = await call('GET', `/emails/${theirs}`, { key: agent.secret });
    expect(rest.status).toBe(404);
    expect(tool.isError).toBe(true);
    expect(resultJson(tool)).toEqual(rest.json);
    expect(resultJson(tool)).toMatchObject({ statusCode: 404, name: 'not_found' });

    // A sender domain the team has not verified.
    const unverified = {
      from: `Someone <me@unverified-${randomUUID().slice(0, 8)}.example.com>`,
      to: 'delivered@resend.dev',
      subject: 'nope',
      text: 'x',
    };
    const toolSend = await agent.client.callTool({ name: 'send_email', arguments: unverified });
    const restSend = await call('POST', '/emails', { key: agent.secret, body: unverified });
    expect(restSend.status).toBe(422);
    expect(toolSend.isError).toBe(true);
    expect(resultJson(toolSend)).toEqual(restSend.json);

    // Schema validation: the route's own valibot schemas, so the same field-level message.
    const bad = { from: agent.from, to: 'not an address', subject: 'x', text: 'x' };
    const toolBad = await agent.client.callTool({ name: 'send_email', arguments: bad });
    const restBad = await call('POST', '/emails', { key: agent.secret, body: bad });
    expect(restBad.json.name).toBe('validation_error');
    expect(resultJson(toolBad)).toEqual(restBad.json);

    // A path id that cannot be one, and an argument the tool does not take.
    expect(resultJson(await agent.client.callTool({ name: 'get_domain', arguments: { id: 'x'.repeat(400) } }))).toEqual(
      (await call('GET', `/domains/${'x'.repeat(400)}`, { key: agent.secret })).json,
    );
    expect(resultJson(await agent.client.callTool({ name: 'get_usage', arguments: { verbose: true } }))).toEqual({
      statusCode: 422,
      name: 'validation_error',
      message: 'Unknown argument `verbose`: get_usage takes no arguments.',
    });
    expect(resultJson(await agent.client.callTool({ name: 'get_email', arguments: {} }))).toMatchObject({
      statusCode: 422,
      name: 'validation_error',
      message: expect.stringContaining('`id` is required'),
    });
  });

  it('runs the audience, batch and alias-backed tools through their routes', async () => {
    const agent = await mcp.signIn(ALL_SCOPES);
    const segment = resultJson(await agent.client.callTool({ name: 'create_segment', arguments: { name: 'Agents' } }));
    expect(segment).toMatchObject({ object: 'segment', name: 'Agents' });
    const batch = resultJson(
      await agent.client.callTool({
        name: 'batch_create_contacts',
        arguments: {
          contacts: [{ email: 'a@example.com' }, { email: 'b@example.com', segments: [{ id: segment.id }] }],
        },
      }),
    );
    expect(batch.counts).toMatchObject({ created: 2, failed: 0 });
    const members = resultJson(
      await agent.client.callTool({ name: 'list_segment_contacts', arguments: { id: segment.id } }),
    );
    expect(members.data.map((c: any) => c.email)).toEqual(['b@example.com']);
    const added = await agent.client.callTool({
      name: 'add_contact_to_segment',
      arguments: { id: 'a@example.com', segment_id: segment.id },
    });
    expect(added.isError).toBeFalsy();
    const rest = await agent.resend.contacts.list({ segmentId: segment.id } as any);
    expect(rest.data?.data.map((c: any) => c.email).sort()).toEqual(['a@example.com', 'b@example.com']);
    const permissive = resultJson(
      await agent.client.callTool({
        name: 'send_batch_emails',
        arguments: {
          batch_validation: 'permissive',
          emails: [
            { from: agent.from, to: 'delivered@resend.dev', subject: 'one', text: 'x' },
            { from: agent.from, to: 'nope', subject: 'two', text: 'x' },
          ],
        },
      }),
    );
    expect(permissive.data).toHaveLength(1);
    expect(permissive.errors).toEqual([expect.objectContaining({ index: 1 })]);
  });
});

describe('hosted MCP server: HTTP', () => {
  it('answers an API key, a missing token and an unknown token with 401 and the protected-resource challenge', async () => {
    const t = await newTeam();
    const challenge = `Bearer resource_metadata="${local().baseUrl}/.well-known/oauth-protected-resource"`;
    // The scopes the server supports, as the protected-resource metadata lists them.
    const scope = `scope="${SCOPES.join(' ')}"`;
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const withKey = await call('POST', '/mcp', {
      key: t.secret,
      body: message,
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(withKey.status).toBe(401);
    expect(withKey.headers.get('www-authenticate')).toMatch(
      /^Bearer resource_metadata="[^"]+\/\.well-known\/oauth-protected-resource", error="invalid_token"/,
    );
    expect(withKey.headers.get('www-authenticate')).toBe(`${challenge}, error="invalid_token", ${scope}`);
    expect(withKey.json).toMatchObject({
      statusCode: 401,
      name: 'invalid_api_key',
      message: expect.stringContaining('API keys do not authenticate the MCP server'),
    });
    const none = await call('POST', '/mcp', { body: message });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(`${challenge}, ${scope}`);
    expect(SCOPES).toEqual((await call('GET', '/.well-known/oauth-protected-resource')).json.scopes_supported);
    expect(none.json).toMatchObject({ statusCode: 401, name: 'missing_api_key' });
    for (const method of ['GET', 'DELETE']) {
      const res = await call(method, '/mcp', { key: t.secret });
      expect(res.status, method).toBe(401);
      expect(res.headers.get('www-authenticate'), method).toMatch(/^Bearer resource_metadata=/);
    }
    // The MCP SDK's own client, given an API key, cannot connect.
    const client = new Client({ name: 'api-key-client', version: '1.0.0' });
    await expect(
      client.connect(
        new StreamableHTTPClientTransport(new URL(`${local().baseUrl}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${t.secret}` } },
        }),
      ),
    ).rejects.toThrow(/401|Unauthorized/i);
    // The harness's verifier refuses what it did not issue the same way.
    expect((await mcp.post('not-a-token', message)).status).toBe(401);
  });

  it('serves a person holding a real access token on the local host, and stops at the next call once the grant is revoked', async () => {
    const agent = await mcp.signIn(['emails:send'], { connect: false });
    const d = testDeps();
    const grant = await createGrant(d, {
      teamId: agent.team.id,
      userId: agent.user.id,
      clientId: 'local-test-client',
      clientName: 'Local test',
      clientLogoUri: null,
      scopes: ['emails:send', 'emails:read'],
      resource: mcpResourceUrl(d.config),
    });
    const { access_token } = await issueTokens(d, grant);
    const client = new Client({ name: 'token-holder', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${local().baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${access_token}` } },
      }),
    );
    expect(names((await client.listTools()).tools)).toEqual(
      names(TOOLS.filter((t) => t.scope === 'emails:send' || t.scope === 'emails:read')),
    );
    const sent = await client.callTool({
      name: 'send_email',
      arguments: { from: agent.from, to: 'delivered@resend.dev', subject: 'Over the local host', text: 'hi' },
    });
    const { id } = resultJson(sent);
    expect((await agent.resend.emails.get(id)).data).toMatchObject({ id, subject: 'Over the local host' });
    await revokeGrant(d, agent.team.id, grant.id, 'revoked_by_user');
    await expect(client.listTools()).rejects.toThrow(/401|Unauthorized/i);
    const after = await call('POST', '/mcp', {
      key: access_token,
      body: { jsonrpc: '2.0', id: 9, method: 'tools/list' },
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(after.status).toBe(401);
    expect(after.json).toMatchObject({ name: 'invalid_api_key', message: expect.stringContaining('revoked') });
  });

  it("refuses a foreign Origin or Host with 403 before authenticating (DNS rebinding) and serves the service's own origins and clients without one", async () => {
    const agent = await mcp.signIn(['emails:read'], { connect: false });
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const post = (headers: Record<string, string>) =>
      call('POST', '/mcp', {
        key: agent.token,
        body: message,
        headers: { accept: 'application/json, text/event-stream', ...headers },
      });
    const evil = await post({ origin: 'http://evil.example.com' });
    expect(evil.status).toBe(403);
    expect(evil.json).toMatchObject({
      statusCode: 403,
      name: 'forbidden',
      message: expect.stringContaining("`http://evil.example.com` is not one of this service's origins"),
    });
    // Refused before the token is read: no token at all is also 403, not 401.
    expect(
      (await call('POST', '/mcp', { body: message, headers: { origin: 'https://attacker.example' } })).status,
    ).toBe(403);
    expect((await post({ origin: 'null' })).status).toBe(403);
    // A page on another port of the same machine is another origin.
    const other = new URL(local().baseUrl);
    other.port = String(Number(other.port) + 1);
    expect((await post({ origin: other.origin })).status).toBe(403);
    // A rebinding page's request reaches the local host under its own name.
    const rebound = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${local().baseUrl}/mcp`,
        {
          method: 'POST',
          headers: {
            host: 'evil.example.com',
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${agent.token}`,
          },
        },
        (res) => {
          let body = '';
          res
            .on('data', (chunk) => {
              body += chunk;
            })
            .on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject).end(JSON.stringify(message));
    });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).message).toContain('Host header `evil.example.com`');
    // The hosted server in-process (no real token on the local host): its own origins and no Origin pass.
    for (const origin of [local().baseUrl, local().dashboardUrl, undefined]) {
      const res = await mcp.fetch(new URL(`${local().baseUrl}/mcp`), {
        method: 'POST',
        headers: {
          authorization: `Bearer ${agent.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(origin ? { origin } : {}),
        },
        body: JSON.stringify(message),
      });
      expect(res.status, String(origin)).toBe(200);
    }
    expect(
      (
        await mcp.fetch(new URL(`${local().baseUrl}/mcp`), {
          method: 'POST',
          headers: {
            authorization: `Bearer ${agent.token}`,
            'content-type': 'application/json',
            origin: 'http://evil.example.com',
          },
          body: JSON.stringify(message),
        })
      ).status,
    ).toBe(403);
  });

  it('serves POST only: GET and DELETE answer 405 (a stateless server has no stream or session)', async () => {
    const agent = await mcp.signIn(['emails:read']);
    for (const method of ['GET', 'DELETE']) {
      const res = await mcp.fetch(new URL(`${local().baseUrl}/mcp`), {
        method,
        headers: { authorization: `Bearer ${agent.token}`, accept: 'text/event-stream' },
      });
      expect(res.status, method).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
      expect(await res.json()).toMatchObject({ statusCode: 405, name: 'method_not_allowed' });
    }
  });

  it('refuses the 601st call of a person in one minute with 429 rate_limit_exceeded and Retry-After, apart from the key window', async () => {
    // A clock held still inside one minute, so the whole count lands in one window.
    const frozen = Date.now();
    const held = createDeps(readConfig(local().env), { clock: { now: () => frozen } });
    const harness = mcpHarness(() => held);
    const agent = await harness.signIn(['emails:read'], { connect: false });
    let made = 0;
    while (made < 600) {
      const n = Math.min(25, 600 - made);
      const answers = await Promise.all(
        Array.from({ length: n }, (_, i) =>
          harness.post(agent.token, { jsonrpc: '2.0', id: made + i, method: 'tools/list' }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(n).fill(200));
      made += n;
    }
    const refused = await harness.post(agent.token, {
      jsonrpc: '2.0',
      id: 601,
      method: 'tools/call',
      params: { name: 'get_usage', arguments: {} },
    });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
    expect(await refused.json()).toMatchObject({
      statusCode: 429,
      name: 'rate_limit_exceeded',
      message: expect.stringContaining('600 calls per minute'),
    });
    // The team's API key was not charged: REST still answers.
    expect((await call('GET', '/usage', { key: agent.secret })).status).toBe(200);
    // Another person of another team has their own window.
    const other = await harness.signIn(['emails:read'], { connect: false });
    expect((await harness.post(other.token, { jsonrpc: '2.0', id: 1, method: 'tools/list' })).status).toBe(200);
  }, 120_000);
});
