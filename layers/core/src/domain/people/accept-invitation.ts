import { peekInvitation } from './invitation.ts';
import { checkPassword } from './passwords.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getTeam } from '../teams/team.ts';
import type { Role } from './roles.ts';
import { addMember } from './add-member.ts';
import { consumeToken } from './one-time-tokens.ts';
import { findUserByEmail, type User } from './user.ts';
import { createUser } from './create-user.ts';
import { listInvitations } from './list-invitations.ts';

/** Whether `person` is the one an invitation was sent to (addresses compared case-insensitively). */
export const isInvitee = (person: Pick<User, 'email'> | undefined, invitedEmail: string): boolean =>
  person !== undefined && person.email.trim().toLowerCase() === invitedEmail.trim().toLowerCase();

/**
 * Accepts an invitation: a person without an account signs up with a name and password (the
 * invited address is theirs: the link came to it); one with an account joins once signed in as
 * that account (`signedIn`): the link alone is no sign-in, for it lasts days and a forwarded mail
 * would hand over every team of the account. The link works once; the team count guard applies
 * (403 plan_limit_reached).
 */
export const acceptInvitation = async (
  deps: Deps,
  token: string,
  signUp: { name?: string; password?: string },
  signedIn?: Pick<User, 'email'>,
): Promise<{ user: User; teamId: string } | 'sign_in_first' | undefined> => {
  const peek = await peekInvitation(deps, token);
  if (!peek) return undefined;
  if (peek.hasAccount && !isInvitee(signedIn, peek.invitation.email)) return 'sign_in_first';
  if (!peek.hasAccount) checkPassword(signUp.password ?? '');
  const data = await consumeToken(deps, token, 'invitation');
  if (!data) return undefined;
  const team = await getTeam(deps, data.team_id!);
  if (!team) return undefined;
  const user =
    (await findUserByEmail(deps, data.email!)) ??
    (await createUser(deps, { email: data.email!, name: signUp.name ?? '', password: signUp.password }));
  // Any other pending invitation of the address to this team goes with it.
  const others = (await listInvitations(deps, team.id)).filter(
    (i) => i.email === data.email && i.id !== data.invitation_id,
  );
  await addMember(deps, team, user, data.role as Role, [
    { delete: keys.invitation.item(team.id, data.invitation_id!), when: { exists: true } },
    ...others.map((i) => ({ delete: keys.invitation.item(team.id, i.id) })),
  ]);
  return { user, teamId: team.id };
};
