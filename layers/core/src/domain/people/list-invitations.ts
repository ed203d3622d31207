import { invitationFromItem } from './invitation.ts';
import type { Invitation } from './invitation.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryAll } from '../../table/ops.ts';

/** The pending invitations of a team. */
export const listInvitations = async (deps: Deps, teamId: string): Promise<Invitation[]> => {
  const now = deps.clock.now() / 1000;
  return (await queryAll(deps, { pk: keys.invitation.partition(teamId), prefix: keys.invitation.prefix }))
    .filter((i) => Number(i.expires_at) > now)
    .map(invitationFromItem);
};
