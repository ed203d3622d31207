import { randomUUID } from 'node:crypto';
import { getTeam } from '@mailstack/core/domain/teams/team';
import { createUser } from '@mailstack/core/domain/people/users';
import { addMember } from '@mailstack/core/domain/people/memberships';
import { createMailbox } from '@mailstack/core/domain/mailboxes/manage-mailboxes';
import { testDeps } from './local.ts';
import { sendingTeam } from './sending.ts';

/** A team with a verified domain and a person who can own its mailboxes. */
export const mailboxTeam = async () => {
  const t = await sendingTeam();
  const d = testDeps();
  const owner = await createUser(d, { email: `owner-${randomUUID()}@people.example.com`, name: 'Owner' });
  await addMember(d, (await getTeam(d, t.team.id))!, owner, 'member');
  return {
    ...t,
    owner,
    /** A mailbox `<localPart>@<the team's domain>` owned by the team's person. */
    mailbox: (localPart: string, name?: string) => createMailbox(d, { teamId: t.team.id, domainId: t.domainId, localPart, name, ownerUserId: owner.id }),
  };
};
