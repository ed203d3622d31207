import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createMailbox } from '@mailstack/core/domain/mailboxes/create-mailbox';
import { createUser } from '@mailstack/core/domain/people/create-user';
import { addMember } from '@mailstack/core/domain/people/add-member';
import { getTeam } from '@mailstack/core/domain/teams/team';
import { grantMailboxLicense } from '@mailstack/core/domain/mailboxes/grant-mailbox-license';
import { listActivity } from '@mailstack/core/domain/mailboxes/activity';
import { keys } from '@mailstack/core/table/keys';
import { updateItem } from '@mailstack/core/table/ops';
import { local, testDeps } from '../support/local.ts';
import { sendingTeam } from '../support/sending.ts';
import { personIn, signInOverHttp } from '../support/dashboard.ts';
import { authorizeUrl, consentOverHttp, pkce, registerClient, tokenRequest } from '../support/oauth.ts';
import { mx, newDraft } from '../support/mailboxes.ts';
import { waitFor } from '../support/wait.ts';
import { resultJson, scopeRefusal } from '../support/mcp.ts';

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
  const box = (localPart: string, ownerUserId: string) =>
    createMailbox(d, { teamId: t.team.id, domainId: t.domainId, localPart, ownerUserId });
  const [mine, also, theirs] = [
    await box('mine', person.user.id),
    await box('also', person.user.id),
    await box('theirs', colleague.id),
  ];
  for (const m of [mine, also, theirs])
    await mx().sendMail({
      from: 'ada@customer.example.org',
      to: m.address,
      subject: `For ${m.localPart}`,
      text: 'Hello.',
    });
  const received = await waitFor(
    async () => (await t.resend.emails.receiving.list()).data?.data ?? [],
    (rows) => rows.length === 3,
  );
  expect(received).toHaveLength(3);
  const idOf = (address: string) => received.find((r: any) => r.to.includes(address))!.id as string;
  return { t, person, s: await signInOverHttp(person.link), client: await registerClient(), mine, also, theirs, idOf };
};

/** The consent screen's page and the token the MCP client gets for `scopes` and the ticked mailboxes. */
const connect = async (w: Awaited<ReturnType<typeof world>>, scopes: string[], mailboxIds: string[]) => {
  const { verifier, challenge } = pkce();
  const { page, landing } = await consentOverHttp(
    w.s,
    authorizeUrl({
      client_id: w.client.clientId,
      redirect_uri: w.client.redirectUri,
      code_challenge: challenge,
      scope: scopes.join(' '),
    }),
    { teamId: w.t.team.id, scopes, mailboxIds },
  );
  const res = await tokenRequest({
    grant_type: 'authorization_code',
    code: landing.searchParams.get('code')!,
    code_verifier: verifier,
    client_id: w.client.clientId,
    redirect_uri: w.client.redirectUri,
    resource: mcpUrl(),
  });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  const mcp = new Client({ name: 'mail-agent', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl()), {
      requestInit: { headers: { authorization: `Bearer ${res.json.access_token}` } },
    }),
  );
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
    expect(names).toEqual(
      expect.arrayContaining([
        'list_received_emails',
        'get_received_email',
        'list_received_attachments',
        'get_received_attachment',
      ]),
    );
    const listed = resultJson(await mcp.callTool({ name: 'list_received_emails', arguments: {} }));
    expect(listed.data.map((r: any) => r.to)).toEqual([[w.mine.address]]);
    const own = resultJson(
      await mcp.callTool({ name: 'get_received_email', arguments: { id: w.idOf(w.mine.address) } }),
    );
    expect(own).toMatchObject({ object: 'email', subject: 'For mine', text: expect.stringContaining('Hello.') });
    for (const other of [w.also.address, w.theirs.address]) {
      const refused = await mcp.callTool({ name: 'get_received_email', arguments: { id: w.idOf(other) } });
      expect(refused.isError, other).toBe(true);
      expect(resultJson(refused)).toMatchObject({ statusCode: 404, name: 'not_found' });
      expect(
        (await mcp.callTool({ name: 'list_received_attachments', arguments: { id: w.idOf(other) } })).isError,
      ).toBe(true);
    }
    // The REST API with a full-access key still reads every mailbox of the team.
    expect(((await w.t.resend.emails.receiving.list()).data?.data ?? []).length).toBe(3);
    await mcp.close();
  }, 60_000);

  it("read the SDK inboxes' threads, emails and labels with mail:read, only in the mailboxes ticked at consent", async () => {
    // Prepare
    const w = await world();
    const { mcp } = await connect(w, ['mail:read'], [w.mine.id]);
    const call = async (name: string, args: Record<string, unknown>) => mcp.callTool({ name, arguments: args });

    // Act
    const threads = resultJson(await call('list_inbox_threads', { id: w.mine.id }));
    const thread = threads.data[0];
    const emails = resultJson(await call('list_inbox_thread_emails', { id: w.mine.address, thread_id: thread.id }));
    const found = resultJson(await call('search_inbox_threads', { id: w.mine.id, query: 'hello' }));
    const labels = resultJson(await call('list_inbox_labels', { id: w.mine.id }));
    const refused = [
      await call('list_inbox_threads', { id: w.also.id }),
      await call('list_inbox_threads', { id: w.theirs.address }),
    ];

    // Assess
    expect(threads.data.map((x: any) => x.subject)).toEqual(['For mine']);
    expect(emails.data).toEqual([
      expect.objectContaining({ direction: 'inbound', untrusted: true, text: expect.stringContaining('Hello.') }),
    ]);
    expect(found.data.map((x: any) => x.id)).toEqual([thread.id]);
    expect(labels).toMatchObject({ object: 'list', data: [] });
    for (const r of refused) {
      expect(r.isError).toBe(true);
      expect(resultJson(r)).toMatchObject({ statusCode: 404, name: 'not_found' });
    }
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
    await expect(mcp.callTool({ name: 'list_received_emails', arguments: {} })).rejects.toMatchObject(
      scopeRefusal('mail:read'),
    );
    await mcp.close();
  }, 60_000);

  it("mail:draft saves drafts only in the mailboxes ticked at consent, and a send asks the owner's approval", async () => {
    // Prepare
    const w = await world();
    await grantMailboxLicense(testDeps(), w.t.team.id, {
      seats: 5,
      storageBytes: 50 * 1024 * 1024,
      recipientAllowance: 1000,
    });

    // Act
    const { scope, mcp } = await connect(w, ['mail:draft'], [w.mine.id, w.theirs.id]);
    const names = (await mcp.listTools()).tools.map((t) => t.name);
    const saved = await mcp.callTool({
      name: 'save_mailbox_draft',
      arguments: { mailbox_id: w.mine.id, ...newDraft({ subject: 'Drafted through OAuth' }) },
    });
    const stale = await mcp.callTool({
      name: 'save_mailbox_draft',
      arguments: { mailbox_id: w.mine.id, ...newDraft({ id: resultJson(saved).id, expectedRevision: 3 }) },
    });
    const sent = await mcp.callTool({
      name: 'send_mailbox_draft',
      arguments: { mailbox_id: w.mine.id, id: resultJson(saved).id, expectedRevision: 0 },
    });
    const elsewhere = await Promise.all(
      [w.also.id, w.theirs.id, randomUUID()].map((mailbox_id) =>
        mcp.callTool({ name: 'save_mailbox_draft', arguments: { mailbox_id, ...newDraft() } }),
      ),
    );
    const read = await mcp.callTool({ name: 'list_received_emails', arguments: {} }).catch((error: unknown) => error);
    const activity = await listActivity(testDeps(), w.t.team.id, w.mine.id);

    // Assess
    expect(scope).toBe('mail:draft');
    expect(names).toEqual(expect.arrayContaining(['save_mailbox_draft', 'send_mailbox_draft']));
    expect(names).not.toContain('list_received_emails');
    expect(saved.isError).toBeFalsy();
    expect(resultJson(saved)).toMatchObject({ revision: 0, status: 'draft', subject: 'Drafted through OAuth' });
    expect(stale.isError).toBe(true);
    expect(resultJson(stale)).toMatchObject({ statusCode: 409, name: 'stale_revision' });
    expect(resultJson(sent)).toMatchObject({ status: 'awaiting_approval', duplicate: false, emailId: null });
    for (const refused of elsewhere) {
      expect(refused.isError).toBe(true);
      expect(resultJson(refused)).toMatchObject({ statusCode: 404, name: 'not_found' });
    }
    expect(read).toMatchObject(scopeRefusal('mail:read'));
    expect(activity.map((a) => [a.action, a.actor, a.actorName, a.via])).toEqual([
      ['approval_requested', expect.stringMatching(/^grant:/), 'OAuth: Test person', 'mcp'],
      ['draft', expect.stringMatching(/^grant:/), 'OAuth: Test person', 'mcp'],
      // The message the world set up was received into the mailbox before any of it.
      ['receive', 'sender:ada@customer.example.org', 'ada@customer.example.org', 'inbound'],
    ]);
    await mcp.close();
  }, 60_000);

  it('mail:send admits a draft to the outbox from the mailbox, once per revision, until the mailbox changes hands; without mail:draft or mail:send the tools are refused', async () => {
    // Prepare
    const w = await world();
    await grantMailboxLicense(testDeps(), w.t.team.id, {
      seats: 5,
      storageBytes: 50 * 1024 * 1024,
      recipientAllowance: 1000,
    });
    const { scope, mcp } = await connect(w, ['mail:draft', 'mail:send'], [w.mine.id]);
    const reader = await connect(w, ['mail:read'], [w.mine.id]);
    const draft = resultJson(
      await mcp.callTool({
        name: 'save_mailbox_draft',
        arguments: { mailbox_id: w.mine.id, ...newDraft({ subject: 'Sent through OAuth' }) },
      }),
    );

    // Act
    const first = await mcp.callTool({
      name: 'send_mailbox_draft',
      arguments: { mailbox_id: w.mine.id, id: draft.id, expectedRevision: 0 },
    });
    const again = await mcp.callTool({
      name: 'send_mailbox_draft',
      arguments: { mailbox_id: w.mine.id, id: draft.id, expectedRevision: 0 },
    });
    const otherBox = await mcp.callTool({
      name: 'send_mailbox_draft',
      arguments: { mailbox_id: w.also.id, id: draft.id, expectedRevision: 0 },
    });
    const readerNames = (await reader.mcp.listTools()).tools.map((t) => t.name);
    const readerSend = await reader.mcp
      .callTool({ name: 'send_mailbox_draft', arguments: { mailbox_id: w.mine.id, id: draft.id, expectedRevision: 0 } })
      .catch((error: unknown) => error);
    const email = await w.t.resend.emails.get(resultJson(first).emailId);
    // The mailbox changes hands: the grant was the former owner's to give, so it no longer reaches it.
    await updateItem(
      testDeps(),
      keys.mailbox.item(w.t.team.id, w.mine.id),
      { set: { owner_user_id: w.theirs.ownerUserId } },
      { exists: true },
    );
    const handedOver = await mcp.callTool({
      name: 'save_mailbox_draft',
      arguments: { mailbox_id: w.mine.id, ...newDraft() },
    });

    // Assess
    expect(scope.split(' ').sort()).toEqual(['mail:draft', 'mail:send']);
    expect(resultJson(first)).toMatchObject({
      id: draft.id,
      status: 'admitted',
      duplicate: false,
      emailId: expect.any(String),
    });
    expect(resultJson(again)).toMatchObject({
      status: 'admitted',
      duplicate: true,
      emailId: resultJson(first).emailId,
    });
    expect(email.data).toMatchObject({ to: ['reader@customer.example.org'], subject: 'Sent through OAuth' });
    expect(email.data!.from).toContain(w.mine.address);
    expect(resultJson(otherBox)).toMatchObject({ statusCode: 404, name: 'not_found' });
    expect(resultJson(handedOver)).toMatchObject({ statusCode: 404, name: 'not_found' });
    expect(readerNames).not.toContain('save_mailbox_draft');
    expect(readerNames).not.toContain('send_mailbox_draft');
    expect(readerSend).toMatchObject(scopeRefusal('mail:send'));
    await Promise.all([mcp.close(), reader.mcp.close()]);
  }, 60_000);
});

describe('the mailboxes:* scopes of the hosted MCP server', () => {
  it("list the team's mailboxes (mailboxes:read) and create, rename and delete them (mailboxes:write, owners and admins), through the dashboard's use cases", async () => {
    // Prepare
    const w = await world();
    const reader = await connect(w, ['mailboxes:read'], []);
    const { mcp, scope } = await connect(w, ['mailboxes:read', 'mailboxes:write'], []);
    const call = async (name: string, args: Record<string, unknown>) => mcp.callTool({ name, arguments: args });

    // Act
    const listed = resultJson(await call('list_mailboxes', {}));
    const made = await call('create_mailbox', { domain_id: w.t.domainId, local_part: 'agents', name: 'Agents' });
    const taken = await call('create_mailbox', { domain_id: w.t.domainId, local_part: 'mine' });
    const renamed = await call('rename_mailbox', { id: resultJson(made).id, local_part: 'robots' });
    const deleted = await call('delete_mailbox', { id: resultJson(made).id });
    const readerTools = (await reader.mcp.listTools()).tools.map((t) => t.name);
    const readerCreate = await reader.mcp
      .callTool({ name: 'create_mailbox', arguments: { domain_id: w.t.domainId, local_part: 'nope' } })
      .catch((error: unknown) => error);
    const after = resultJson(await call('list_mailboxes', {}));

    // Assess
    expect(scope.split(' ').sort()).toEqual(['mailboxes:read', 'mailboxes:write']);
    expect(listed.data.map((m: any) => m.address).sort()).toEqual(
      [w.also.address, w.mine.address, w.theirs.address].sort(),
    );
    expect(resultJson(made)).toMatchObject({
      object: 'mailbox',
      address: `agents@${w.t.domain}`,
      name: 'Agents',
      owner_user_id: w.person.user.id,
    });
    expect(taken.isError).toBe(true);
    expect(resultJson(taken)).toMatchObject({ statusCode: 409, name: 'conflict' });
    expect(resultJson(renamed)).toMatchObject({ address: `robots@${w.t.domain}` });
    expect(resultJson(deleted)).toMatchObject({ deleted: true });
    expect(readerTools).toContain('list_mailboxes');
    expect(readerTools).not.toContain('create_mailbox');
    expect(readerCreate).toMatchObject(scopeRefusal('mailboxes:write'));
    expect(after.data).toHaveLength(3);
    await Promise.all([mcp.close(), reader.mcp.close()]);
  }, 60_000);

  it('are not granted mailboxes:write to a member, whose role may not manage mailboxes', async () => {
    // Prepare
    const w = await world();
    const member = await personIn(w.t.team.id, 'member');
    const s = await signInOverHttp(member.link);
    const { verifier, challenge } = pkce();
    const scopes = ['mailboxes:read', 'mailboxes:write'];

    // Act
    const { landing } = await consentOverHttp(
      s,
      authorizeUrl({
        client_id: w.client.clientId,
        redirect_uri: w.client.redirectUri,
        code_challenge: challenge,
        scope: scopes.join(' '),
      }),
      { teamId: w.t.team.id, scopes, mailboxIds: [] },
    );
    const res = await tokenRequest({
      grant_type: 'authorization_code',
      code: landing.searchParams.get('code')!,
      code_verifier: verifier,
      client_id: w.client.clientId,
      redirect_uri: w.client.redirectUri,
      resource: mcpUrl(),
    });

    // Assess
    expect(res.status).toBe(200);
    expect((res.json.scope as string).split(' ')).toEqual(['mailboxes:read']);
  }, 60_000);
});
