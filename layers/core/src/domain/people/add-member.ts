import { memberItem, teamsCap, teamsCapError, countTeam, membershipFromItem, type Membership } from './membership.ts';
import type { Deps } from '../../runtime/deps.ts';
import { transact, type Write } from '../../table/ops.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { Team } from '../teams/team.ts';
import type { Role } from './roles.ts';
import type { User } from './user.ts';

/** Adds a person to a team: 409 conflict when already a member, 403 plan_limit_reached past the cap. */
export const addMember = async (
  deps: Deps,
  team: Team,
  user: User,
  role: Role,
  alsoWrite: readonly Write[] = [],
): Promise<Membership> => {
  const item = memberItem(deps, team.id, user, role);
  const cap = await teamsCap(deps, user, team.plan);
  const out = await transact(deps, [{ put: item, when: { exists: false } }, countTeam(user, cap), ...alsoWrite]);
  if (!out.ok) {
    if (out.failed === 0) throw new ApiError('conflict', `${user.email} is already a member of this team.`);
    if (out.failed === 1) throw teamsCapError(cap);
    throw new ApiError('conflict', 'This invitation was used or withdrawn meanwhile.');
  }
  return membershipFromItem(item);
};
