import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMailbox } from '@mailstack/core/domain/mailboxes/manage-mailboxes';
import { createUser } from '@mailstack/core/domain/people/users';
import { addMember } from '@mailstack/core/domain/people/memberships';
import { getTeam } from '@mailstack/core/domain/teams/team';
import { local, testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { personIn, signInOverHttp } from '../support/dashboard.ts';
import { authorizeUrl, consentOverHttp, pkce, registerClient, tokenRequest } from '../support/oauth.ts';
import { mx, waitFor } from '../support/mailboxes.ts';
import { resultJson } from '../support/mcp.ts';

const mcpUrl = () => `${local().baseUrl}/mcp`;

/**
 * A team with a verified domain, a signed-in owner who owns two mailboxes (mine, also) and a
 * colleague who owns a third (theirs), each holding one received email.
 */
const world = async () => {
  const t = await sendingTeam();
  const d = testDeps();
  const person = await personIn(t.team.id, 'owner');
  const colleague = await createUser(d, { email: `c-${randomUUID().slice(0, 8)}@example.com`, name: 'Colleague' });
  await addMember(d, (await getTeam(d, t.team.id))!, colleague, 'member');
  const box = (localPart: string, ownerUserId: string) => createMailbox(d, { teamId: t.team.id, domainId: t.domainId, localPart, ownerUserId });
  const [mine, also, theirs] = [await box('mine', person.user.id), await box('also', person.user.id), await box('theirs', colleague.id)];
  for (const m of [mine, also, theirs]) await mx().sendMail({ from: 'ada@customer.example.org', to: m.address, subject: `For ${m.localPart}`, text: 'Hello.' });
  const received = await waitFor(async () => (await t.resend.emails.receiving.list()).data?.data ?? [], (rows) => rows.length === 3);
  expect(received).toHaveLength(3);
  const idOf = (address: string) => received.find((r: any) => r.to.includes(address))!.id as string;
  return { t, s: await signInOverHttp(person.link), client: await registerClient(), mine, also, theirs, idOf };
};

/** The consent screen's page and the token the MCP client gets for `scopes` and the ticked mailboxes. */
const connect = async (w: Awaited<ReturnType<typeof world>>, scopes: string[], mailboxIds: string[]) => {
  const { verifier, challenge } = pkce();
  const { page, landing } = await consentOverHttp(w.s, authorizeUrl({ client_id: w.client.clientId, redirect_uri: w.client.redirectUri, code_challenge: challenge, scope: scopes.join(' ') }), { teamId: w.t.team.id, scopes, mailboxIds });
  const res = await tokenRequest({ grant_type: 'authorization_code', code: landing.searchParams.get('code')!, code_verifier: verifier, client_id: w.client.clientId, redirect_uri: w.client.redirectUri, resource: mcpUrl() });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  const mcp = new Client({ name: 'mail-agent', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(mcpUrl()), { requestInit: { headers: { authorization: `Bearer ${res.json.access_token}` } } }));
  return { page, scope: res.json.scope as string, mcp };
};

describe('the mail:* scopes of the hosted MCP server', () => {
  it('act only in the mailboxes the person owns and ticked at consent: mail:read lists and reads those, and answers 404 for the rest', async () => {
    // Prepare
    const w = await world();

    // Act: tick the person's first mailbox, and the colleague's (not the person's to lend).
    const { page, scope, mcp } = await connect(w, ['mail:read', 'emails:read'], [w.mine.id, w.theirs.id]);

    // Assess: the consent screen offers the person's own mailboxes only.
    expect(page).toContain(w.mine.address);
    expect(page).toContain(w.also.address);
    expect(page).not.toContain(w.theirs.address);
    expect(scope.split(' ').sort()).toEqual(['emails:read', 'mail:read']);
    const names = (await mcp.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['list_received_emails', 'get_received_email', 'list_received_attachments', 'get_received_attachment']));
    const listed = resultJson(await mcp.callTool({ name: 'list_received_emails', arguments: {} }));
    expect(listed.data.map((r: any) => r.to)).toEqual([[w.mine.address]]);
    const own = resultJson(await mcp.callTool({ name: 'get_received_email', arguments: { id: w.idOf(w.mine.address) } }));
    expect(own).toMatchObject({ object: 'email', subject: 'For mine', text: expect.stringContaining('Hello.') });
    for (const other of [w.also.address, w.theirs.address]) {
      const refused = await mcp.callTool({ name: 'get_received_email', arguments: { id: w.idOf(other) } });
      expect(refused.isError, other).toBe(true);
      expect(resultJson(refused)).toMatchObject({ statusCode: 404, name: 'not_found' });
      expect((await mcp.callTool({ name: 'list_received_attachments', arguments: { id: w.idOf(other) } })).isError).toBe(true);
    }
    // The REST API with a full-access key still reads every mailbox of the team.
    expect(((await w.t.resend.emails.receiving.list()).data?.data ?? []).length).toBe(3);
    await mcp.close();
  }, 60_000);

  it('are not granted when no mailbox is ticked: the token carries the other scopes and no mail tool', async () => {
    // Prepare
    const w = await world();

    // Act
    const { scope, mcp } = await connect(w, ['mail:read', 'emails:read'], []);

    // Assess
    expect(scope).toBe('emails:read');
    const names = (await mcp.listTools()).tools.map((t) => t.name);
    expect(names).toContain('list_emails');
    expect(names).not.toContain('list_received_emails');
    const refused = await mcp.callTool({ name: 'list_received_emails', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(resultJson(refused)).toMatchObject({ statusCode: 403, name: 'forbidden' });
    await mcp.close();
  }, 60_000);
});
