import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem } from '../../table/ops.ts';
import { getTeam } from '../teams/team.ts';
import type { Role } from './roles.ts';
import { unusedToken } from './one-time-tokens.ts';
import { findUserByEmail } from './user.ts';

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

export const invitationFromItem = (i: Record<string, any>): Invitation => ({
  id: i.id,
  teamId: i.team_id,
  email: i.email,
  role: i.role,
  invitedBy: i.invited_by,
  createdAt: i.created_at,
  expiresAt: new Date(Number(i.expires_at) * 1000).toISOString(),
});

/** What an invitation link shows before it is used (without using it). */
export const peekInvitation = async (
  deps: Deps,
  token: string,
): Promise<{ invitation: Invitation; teamName: string; hasAccount: boolean } | undefined> => {
  const data = await unusedToken(deps, token, 'invitation');
  if (!data) return undefined;
  const item = await getItem(deps, keys.invitation.item(data.team_id!, data.invitation_id!));
  const team = item ? await getTeam(deps, item.team_id) : undefined;
  if (!item || !team) return undefined;
  return {
    invitation: invitationFromItem(item),
    teamName: team.name,
    hasAccount: (await findUserByEmail(deps, item.email)) !== undefined,
  };
};
