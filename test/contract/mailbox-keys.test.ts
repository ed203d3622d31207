import { describe, expect, it } from 'vitest';
import { authenticateMailboxKey } from '@mailstack/core/domain/mailboxes/authenticate-mailbox-key';
import { createMailboxKey } from '@mailstack/core/domain/mailboxes/create-mailbox-key';
import { listMailboxKeys } from '@mailstack/core/domain/mailboxes/list-mailbox-keys';
import { revokeMailboxKey } from '@mailstack/core/domain/mailboxes/revoke-mailbox-key';
import { removeMember } from '@mailstack/core/domain/people/remove-member';
import { actorIn } from '@mailstack/core/domain/people/membership';
import { addMember } from '@mailstack/core/domain/people/add-member';
import { createUser } from '@mailstack/core/domain/people/create-user';
import { getTeam } from '@mailstack/core/domain/teams/team';
import { call, testDeps } from '../support/local.ts';
import { mailboxTeam } from '../support/mailboxes.ts';

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: { status?: number; message: string }) => ({ status: e.status, message: e.message }),
  );

describe('mailbox keys (core use cases)', () => {
  it('are created by the mailbox owner only, shown once, stored hashed, with read and draft and optionally send', async () => {
    // Prepare
    const t = await mailboxTeam();
    const m = await t.mailbox('agent');
    const d = testDeps();
    const other = await createUser(d, { email: `member-${t.team.id}@people.example.com` });
    await addMember(d, (await getTeam(d, t.team.id))!, other, 'admin');

    // Act
    const reader = await createMailboxKey(d, {
      teamId: t.team.id,
      mailboxId: m.id,
      actorUserId: t.owner.id,
      name: 'triage bot',
      send: false,
    });
    const sender = await createMailboxKey(d, {
      teamId: t.team.id,
      mailboxId: m.id,
      actorUserId: t.owner.id,
      send: true,
      expiresAt: new Date(Date.now() + 3_600_000).toISOString(),
    });

    // Assess
    expect(reader.secret).toMatch(/^mmb_[A-Za-z0-9_-]{43}$/);
    expect(reader.key.permissions).toEqual(['read', 'draft']);
    expect(sender.key.permissions).toEqual(['read', 'draft', 'send']);
    const listed = await listMailboxKeys(d, t.team.id, m.id);
    expect(listed.map((k) => k.id).sort()).toEqual([reader.key.id, sender.key.id].sort());
    expect(JSON.stringify(listed)).not.toContain(reader.secret);
    const caller = await authenticateMailboxKey(d, `Bearer ${reader.secret}`);
    expect(caller.mailbox.id).toBe(m.id);
    expect([caller.can('read'), caller.can('draft'), caller.can('send')]).toEqual([true, true, false]);
    await expect(
      createMailboxKey(d, { teamId: t.team.id, mailboxId: m.id, actorUserId: other.id, send: true }),
    ).rejects.toMatchObject({ name: 'forbidden' });
    await expect(
      createMailboxKey(d, {
        teamId: t.team.id,
        mailboxId: m.id,
        actorUserId: t.owner.id,
        send: false,
        expiresAt: '2001-01-01T00:00:00Z',
      }),
    ).rejects.toMatchObject({ name: 'validation_error' });
  });

  it('refuse: no key or not a mailbox key 401; revoked, expired, or an owner who left 403; and an mmb_ key is no API key', async () => {
    // Prepare
    const t = await mailboxTeam();
    const m = await t.mailbox('bot');
    const d = testDeps();
    const revoked = await createMailboxKey(d, {
      teamId: t.team.id,
      mailboxId: m.id,
      actorUserId: t.owner.id,
      send: false,
    });
    const expiring = await createMailboxKey(d, {
      teamId: t.team.id,
      mailboxId: m.id,
      actorUserId: t.owner.id,
      send: false,
      expiresAt: new Date(Date.now() + 1500).toISOString(),
    });
    const good = await createMailboxKey(d, {
      teamId: t.team.id,
      mailboxId: m.id,
      actorUserId: t.owner.id,
      send: false,
    });

    // Act
    await revokeMailboxKey(d, { teamId: t.team.id, mailboxId: m.id, keyId: revoked.key.id, actorUserId: t.owner.id });
    await new Promise((r) => setTimeout(r, 1600));

    // Assess
    expect(await refusal(authenticateMailboxKey(d, undefined))).toMatchObject({ status: 401 });
    expect(await refusal(authenticateMailboxKey(d, `Bearer ${t.secret}`))).toMatchObject({
      status: 401,
      message: expect.stringContaining('not a mailbox key'),
    });
    expect(await refusal(authenticateMailboxKey(d, 'Bearer mmb_unknown'))).toMatchObject({ status: 401 });
    expect(await refusal(authenticateMailboxKey(d, `Bearer ${revoked.secret}`))).toMatchObject({
      status: 403,
      message: expect.stringContaining('revoked'),
    });
    expect(await refusal(authenticateMailboxKey(d, `Bearer ${expiring.secret}`))).toMatchObject({
      status: 403,
      message: expect.stringContaining('expired'),
    });
    expect((await authenticateMailboxKey(d, `Bearer ${good.secret}`)).mailbox.id).toBe(m.id);
    // A mailbox key is refused by the REST API, as an unknown API key.
    const rest = await call('GET', '/domains', { key: good.secret });
    expect(rest.status).toBe(401);
    expect(rest.json).toMatchObject({ name: 'invalid_api_key' });
    // The owner leaves the team: the mailbox's keys stop working.
    const admin = await createUser(d, { email: `admin-${t.team.id}@people.example.com` });
    const team = (await getTeam(d, t.team.id))!;
    await addMember(d, team, admin, 'owner');
    await removeMember(d, await actorIn(d, admin, t.team.id), t.owner.id);
    expect(await refusal(authenticateMailboxKey(d, `Bearer ${good.secret}`))).toMatchObject({
      status: 403,
      message: expect.stringContaining('owner'),
    });
  });
});
