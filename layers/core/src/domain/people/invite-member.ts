import { invitationFromItem } from './invitation.ts';
import type { Invitation } from './invitation.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { transact } from '../../table/ops.ts';
import { listInvitations } from './list-invitations.ts';
import { ApiError } from '../../errors/api-error.ts';
import { authorize, type Role } from './roles.ts';
import { listMembers, type Actor } from './membership.ts';
import { issueToken, TOKEN_LIFETIME_SECONDS, tokenHash } from './one-time-tokens.ts';
import { normalizeEmail } from './user.ts';
import { sendSystemEmail } from './system-mail.ts';
import { invitationMessage } from './system-messages.ts';

/**
 * Invites a person by email (members:write; only an owner invites an owner): stores the
 * invitation and emails a one-time link through the system sender. A new invitation to an address
 * replaces the team's pending one (its link stops working): one invitation an address.
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
  const earlier = (await listInvitations(deps, actor.team.id)).filter((i) => i.email === email);
  await transact(deps, [
    { put: item, when: { exists: false } },
    ...earlier.map((i) => ({ delete: keys.invitation.item(actor.team.id, i.id) })),
  ]);
  const link = `${deps.config.DASHBOARD_URL}/invitations/${token}`;
  await sendSystemEmail(deps, {
    to: email,
    ...invitationMessage({ inviter: actor.user.email, teamName: actor.team.name, role: input.role, link }),
  });
  return invitationFromItem(item);
};
