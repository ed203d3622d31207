import { checkPassword } from './passwords.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, putItem, queryAll, deleteItem } from '../../table/ops.ts';
import { ApiError, notFound } from '../../errors/api-error.ts';
import { getTeam } from '../teams/team.ts';
import { authorize, type Role } from './roles.ts';
import { addMember } from './add-member.ts';
import { listMembers, type Actor } from './membership.ts';
import { consumeToken, issueToken, TOKEN_LIFETIME_SECONDS, tokenHash } from './one-time-tokens.ts';
import { findUserByEmail, normalizeEmail, type User } from './user.ts';
import { createUser } from './create-user.ts';
import { sendSystemEmail } from './system-mail.ts';
import { invitationMessage } from './system-messages.ts';

/** A pending invitation to a team. */
export interface Invitation {
  readonly id: string;
  readonly teamId: string;
  readonly email: string;
  readonly role: Role;
  readonly invitedBy: string;
  readonly createdAt: string;
  readonly expiresAt: string;
}

const invitationFromItem = (i: Record<string, any>): Invitation => ({
  id: i.id,
  teamId: i.team_id,
  email: i.email,
  role: i.role,
  invitedBy: i.invited_by,
  createdAt: i.created_at,
  expiresAt: new Date(Number(i.expires_at) * 1000).toISOString(),
});

/**
 * Invites a person by email (members:write; only an owner invites an owner): stores the
 * invitation and emails a one-time link through the system sender.
 */
export const inviteMember = async (
  deps: Deps,
  actor: Actor,
  input: { email: string; role: Role },
): Promise<Invitation> => {
  authorize(actor.role, 'members:write');
  if (input.role === 'owner') authorize(actor.role, 'team:write');
  const email = normalizeEmail(input.email);
  if ((await listMembers(deps, actor.team.id)).some((m) => m.email === email))
    throw new ApiError('conflict', `${email} is already a member of this team.`);
  const id = deps.ids.next();
  const token = await issueToken(deps, 'invitation', {
    team_id: actor.team.id,
    invitation_id: id,
    email,
    role: input.role,
  });
  const expires = Math.floor(deps.clock.now() / 1000) + TOKEN_LIFETIME_SECONDS.invitation;
  const item = {
    ...keys.invitation.item(actor.team.id, id),
    type: 'invitation',
    id,
    team_id: actor.team.id,
    email,
    role: input.role,
    invited_by: actor.user.email,
    token_hash: tokenHash(token),
    created_at: new Date(deps.clock.now()).toISOString(),
    expires_at: expires,
    ttl: expires,
  };
  await putItem(deps, item, { exists: false });
  const link = `${deps.config.DASHBOARD_URL}/invitations/${token}`;
  await sendSystemEmail(deps, {
    to: email,
    ...invitationMessage({ inviter: actor.user.email, teamName: actor.team.name, role: input.role, link }),
  });
  return invitationFromItem(item);
};

/** The pending invitations of a team. */
export const listInvitations = async (deps: Deps, teamId: string): Promise<Invitation[]> => {
  const now = deps.clock.now() / 1000;
  return (await queryAll(deps, { pk: keys.invitation.partition(teamId), prefix: keys.invitation.prefix }))
    .filter((i) => Number(i.expires_at) > now)
    .map(invitationFromItem);
};

/** Withdraws an invitation (members:write). */
export const withdrawInvitation = async (deps: Deps, actor: Actor, id: string): Promise<void> => {
  authorize(actor.role, 'members:write');
  if (!(await deleteItem(deps, keys.invitation.item(actor.team.id, id), { exists: true })))
    throw notFound('Invitation');
};

/** What an invitation link shows before it is used (without using it). */
export const peekInvitation = async (
  deps: Deps,
  token: string,
): Promise<{ invitation: Invitation; teamName: string; hasAccount: boolean } | undefined> => {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return undefined;
  const stored = await getItem(deps, keys.oneTime.item(tokenHash(token)));
  if (
    stored?.kind !== 'invitation' ||
    stored.used_at !== undefined ||
    Number(stored.expires_at) < deps.clock.now() / 1000
  )
    return undefined;
  const item = await getItem(deps, keys.invitation.item(stored.data.team_id, stored.data.invitation_id));
  const team = item ? await getTeam(deps, item.team_id) : undefined;
  if (!item || !team) return undefined;
  return {
    invitation: invitationFromItem(item),
    teamName: team.name,
    hasAccount: (await findUserByEmail(deps, item.email)) !== undefined,
  };
};

/**
 * Accepts an invitation: a person without an account signs up with a name and password (the
 * invited address is theirs: the link came to it); one with an account joins. The link works
 * once; the team count guard applies (403 plan_limit_reached).
 */
export const acceptInvitation = async (
  deps: Deps,
  token: string,
  signUp: { name?: string; password?: string },
): Promise<{ user: User; teamId: string } | undefined> => {
  const peek = await peekInvitation(deps, token);
  if (!peek) return undefined;
  if (!peek.hasAccount) checkPassword(signUp.password ?? '');
  const data = await consumeToken(deps, token, 'invitation');
  if (!data) return undefined;
  const team = await getTeam(deps, data.team_id!);
  if (!team) return undefined;
  const user =
    (await findUserByEmail(deps, data.email!)) ??
    (await createUser(deps, { email: data.email!, name: signUp.name ?? '', password: signUp.password }));
  await addMember(deps, team, user, data.role as Role, [
    { delete: keys.invitation.item(team.id, data.invitation_id!), when: { exists: true } },
  ]);
  return { user, teamId: team.id };
};
