import { describe, expect, it } from 'vitest';
import { createMailbox } from '@mailstack/core/domain/mailboxes/create-mailbox';
import { deleteMailbox } from '@mailstack/core/domain/mailboxes/delete-mailbox';
import { getMailbox } from '@mailstack/core/domain/mailboxes/get-mailbox';
import { listMailboxes } from '@mailstack/core/domain/mailboxes/list-mailboxes';
import { renameMailbox } from '@mailstack/core/domain/mailboxes/rename-mailbox';
import { findMailboxByAddress } from '@mailstack/core/domain/mailboxes/mailbox';
import { createUser } from '@mailstack/core/domain/people/create-user';
import { newTeam, testDeps } from '../support/local.ts';
import { mailboxTeam } from '../support/mailboxes.ts';

describe('mailboxes (core use cases)', () => {
  it('creates a mailbox on a verified domain, which turns receiving on and adds the inbound MX record', async () => {
    // Prepare
    const t = await mailboxTeam();
    expect((await t.resend.domains.get(t.domainId)).data!.capabilities.receiving).toBe('disabled');

    // Act
    const m = await t.mailbox('Support', 'Acme Support');

    // Assess
    expect(m).toMatchObject({
      teamId: t.team.id,
      domainId: t.domainId,
      localPart: 'support',
      address: `support@${t.domain}`,
      name: 'Acme Support',
      ownerUserId: t.owner.id,
    });
    const domain = (await t.resend.domains.get(t.domainId)).data!;
    expect(domain.capabilities.receiving).toBe('enabled');
    expect(domain.records).toContainEqual(
      expect.objectContaining({
        record: 'Receiving',
        type: 'MX',
        name: '@',
        value: 'inbound-smtp.us-east-1.amazonaws.com',
        priority: 10,
      }),
    );
    expect((await findMailboxByAddress(testDeps(), `SUPPORT@${t.domain.toUpperCase()}`))?.id).toBe(m.id);
    expect((await listMailboxes(testDeps(), t.team.id)).map((x) => x.id)).toEqual([m.id]);
  });

  it('refuses an unverified domain, a bad local part, an owner outside the team and a taken address', async () => {
    // Prepare
    const t = await mailboxTeam();
    const d = testDeps();
    const pending = await t.resend.domains.create({ name: `pending-${t.domain}` });
    const stranger = await createUser(d, { email: `stranger-${t.team.id}@people.example.com` });
    await t.mailbox('hello');
    const other = await newTeam();

    // Act / Assess
    await expect(
      createMailbox(d, { teamId: t.team.id, domainId: pending.data!.id, localPart: 'a', ownerUserId: t.owner.id }),
    ).rejects.toMatchObject({ name: 'validation_error', message: expect.stringContaining('verified domain') });
    await expect(t.mailbox('-bad-')).rejects.toMatchObject({
      name: 'validation_error',
      message: expect.stringContaining('localPart'),
    });
    await expect(t.mailbox('a b')).rejects.toMatchObject({ name: 'validation_error' });
    await expect(
      createMailbox(d, { teamId: t.team.id, domainId: t.domainId, localPart: 'x', ownerUserId: stranger.id }),
    ).rejects.toMatchObject({ name: 'validation_error', message: expect.stringContaining('owner') });
    await expect(t.mailbox('HELLO')).rejects.toMatchObject({ name: 'conflict' });
    // Another team cannot build on this team's domain: its id is unknown there.
    await expect(
      createMailbox(d, { teamId: other.team.id, domainId: t.domainId, localPart: 'x', ownerUserId: t.owner.id }),
    ).rejects.toMatchObject({ name: 'not_found' });
  });

  it('renames a mailbox (the old address stops resolving) and deletes it; the domain keeps receiving while mailboxes live on it', async () => {
    // Prepare
    const t = await mailboxTeam();
    const d = testDeps();
    const m = await t.mailbox('sales');
    await t.mailbox('taken');

    // Act / Assess: rename
    await expect(renameMailbox(d, t.team.id, m.id, { localPart: 'taken' })).rejects.toMatchObject({ name: 'conflict' });
    const renamed = await renameMailbox(d, t.team.id, m.id, { localPart: 'deals', name: 'Deals desk' });
    expect(renamed).toMatchObject({ address: `deals@${t.domain}`, name: 'Deals desk' });
    expect(await findMailboxByAddress(d, `sales@${t.domain}`)).toBeUndefined();
    expect((await findMailboxByAddress(d, `deals@${t.domain}`))?.id).toBe(m.id);
    expect((await getMailbox(d, t.team.id, m.id)).address).toBe(`deals@${t.domain}`);

    // The domain cannot lose receiving, nor be deleted, while mailboxes live on it.
    const off = await t.resend.domains.update({ id: t.domainId, capabilities: { receiving: 'disabled' } } as any);
    expect(off.error).toMatchObject({ statusCode: 409, name: 'conflict' });
    expect((await t.resend.domains.remove(t.domainId)).error).toMatchObject({ statusCode: 409, name: 'conflict' });

    // Delete
    const other = await newTeam();
    await expect(deleteMailbox(d, other.team.id, m.id)).rejects.toMatchObject({ name: 'not_found' });
    await deleteMailbox(d, t.team.id, m.id);
    await expect(getMailbox(d, t.team.id, m.id)).rejects.toMatchObject({ name: 'not_found' });
    expect(await findMailboxByAddress(d, `deals@${t.domain}`)).toBeUndefined();
    for (const rest of await listMailboxes(d, t.team.id)) await deleteMailbox(d, t.team.id, rest.id);
    expect(
      (await t.resend.domains.update({ id: t.domainId, capabilities: { receiving: 'disabled' } } as any)).error,
    ).toBeNull();
    const domain = (await t.resend.domains.get(t.domainId)).data!;
    expect(domain.capabilities.receiving).toBe('disabled');
    expect(domain.records.map((r) => r.record)).not.toContain('Receiving');
    expect((await t.resend.domains.remove(t.domainId)).error).toBeNull();
  });
});
