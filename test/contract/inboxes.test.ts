import { describe, expect, it } from 'vitest';
import { call } from '../support/local.ts';
import { mailboxTeam } from '../support/mailboxes.ts';

describe('inboxes through the official SDK (an inbox is a mailbox)', () => {
  it('creates, lists, gets by id or address, updates and removes an inbox', async () => {
    // Prepare
    const t = await mailboxTeam();
    const address = `support@${t.domain}`;

    // Act
    const created = await t.resend.inboxes.create({ emailAddress: address, name: 'Support', fromName: 'Acme Support' });
    const id = created.data!.id;
    const byId = await t.resend.inboxes.get(id);
    const byAddress = await t.resend.inboxes.get(address.toUpperCase());
    const listed = await t.resend.inboxes.list();
    const updated = await t.resend.inboxes.update(address, { fromName: 'Acme Help' });
    const after = await t.resend.inboxes.get(id);
    const removed = await t.resend.inboxes.remove(address);
    const gone = await t.resend.inboxes.get(id);

    // Assess
    expect(created.error).toBeNull();
    expect(created.data).toEqual({ object: 'inbox', id: expect.any(String) });
    expect(byId.error).toBeNull();
    expect(byId.data).toEqual({
      object: 'inbox',
      id,
      name: 'Support',
      email_address: address,
      from_name: 'Acme Support',
      domain_id: t.domainId,
      receiving_address: null,
      unread: 0,
      drafts: 0,
      last_received: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(byAddress.data).toEqual(byId.data);
    expect(listed.data).toMatchObject({ object: 'list', has_more: false });
    expect(listed.data!.data).toEqual([
      {
        id,
        name: 'Support',
        email_address: address,
        from_name: 'Acme Support',
        unread: 0,
        last_received: null,
        created_at: byId.data!.created_at,
        updated_at: byId.data!.updated_at,
      },
    ]);
    expect(updated.data).toEqual({ object: 'inbox', id });
    expect(after.data).toMatchObject({ name: 'Support', from_name: 'Acme Help' });
    expect(removed.data).toEqual({ object: 'inbox', id, deleted: true });
    expect(gone.error).toMatchObject({ statusCode: 404, name: 'not_found' });
  });

  it('is a mailbox: the address takes mail, and is unique across teams', async () => {
    // Prepare
    const t = await mailboxTeam();
    const m = await t.mailbox('desk', 'Desk');

    // Act
    const existing = await t.resend.inboxes.get(m.id);
    const again = await t.resend.inboxes.create({ emailAddress: `desk@${t.domain}` });

    // Assess
    expect(existing.data).toMatchObject({ id: m.id, email_address: `desk@${t.domain}`, from_name: 'Desk' });
    expect(again.error).toMatchObject({ statusCode: 409, name: 'conflict' });
  });

  it('pages the list newest first with limit and after', async () => {
    // Prepare
    const t = await mailboxTeam();
    const ids: string[] = [];
    for (const part of ['a', 'b', 'c'])
      ids.push((await t.resend.inboxes.create({ emailAddress: `${part}@${t.domain}` })).data!.id);

    // Act
    const first = await t.resend.inboxes.list({ limit: 2 });
    const rest = await t.resend.inboxes.list({ limit: 2, after: first.data!.data[1]!.id });

    // Assess
    expect(first.data!.data.map((i) => i.id)).toEqual([ids[2], ids[1]]);
    expect(first.data!.has_more).toBe(true);
    expect(rest.data!.data.map((i) => i.id)).toEqual([ids[0]]);
    expect(rest.data!.has_more).toBe(false);
  });

  it("refuses another team's inbox with 404, by id and by address, and a sending-access key with 403", async () => {
    // Prepare
    const t = await mailboxTeam();
    const other = await mailboxTeam();
    const m = await other.mailbox('private');
    const sending = await t.addKey('sending_access');

    // Act
    const answers = [
      await t.resend.inboxes.get(m.id),
      await t.resend.inboxes.get(m.address),
      await t.resend.inboxes.update(m.id, { name: 'Mine now' }),
      await t.resend.inboxes.remove(m.address),
    ];
    const restricted = [
      await sending.resend.inboxes.list(),
      await sending.resend.inboxes.create({ emailAddress: `x@${t.domain}` }),
    ];

    // Assess
    for (const a of answers) expect(a.error).toMatchObject({ statusCode: 404, name: 'not_found' });
    for (const a of restricted) expect(a.error).toMatchObject({ statusCode: 403, name: 'restricted_api_key' });
    expect((await other.resend.inboxes.get(m.id)).data).toMatchObject({ id: m.id, name: `private@${other.domain}` });
  });

  it('refuses an address off the verified domains, a bad local part, forwarding and an empty update with 422', async () => {
    // Prepare
    const t = await mailboxTeam();
    const { data } = await t.resend.inboxes.create({ emailAddress: `ok@${t.domain}` });

    // Act
    const foreign = await t.resend.inboxes.create({ emailAddress: 'support@not-ours.example.net' });
    const badLocal = await t.resend.inboxes.create({ emailAddress: `-bad-@${t.domain}` });
    const forwarding = await call('POST', '/inboxes', {
      key: t.secret,
      body: { email_address: `fw@${t.domain}`, forwarding: true },
    });
    const empty = await call('PATCH', `/inboxes/${data!.id}`, { key: t.secret, body: {} });

    // Assess
    expect(foreign.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(foreign.error!.message).toContain('not-ours.example.net is not one of its domains');
    expect(badLocal.error).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(forwarding.json).toMatchObject({ statusCode: 422, name: 'validation_error' });
    expect(forwarding.json.message).toContain('forwarding');
    expect(empty.json).toMatchObject({ statusCode: 422, name: 'validation_error' });
  });
});
