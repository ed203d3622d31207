import { memberItem, teamsCap, teamsCapError, countTeam } from './membership.ts';
import type { Deps } from '../../runtime/deps.ts';
import { transact } from '../../table/ops.ts';
import { MAX_TEAM_NAME_LENGTH } from '../../limits.ts';
import { validationError } from '../../errors/api-error.ts';
import { newTeamItem } from '../teams/create-team.ts';
import { teamFromItem, type Team } from '../teams/team.ts';
import type { User } from './user.ts';

/** Creates a team with the person as its owner, in one transaction with the cap guard. */
export const createTeamFor = async (deps: Deps, user: User, name: string): Promise<Team> => {
  const named = name.trim();
  if (named === '' || named.length > MAX_TEAM_NAME_LENGTH)
    throw validationError(
      `\`name\`: a team needs a name of 1 to ${MAX_TEAM_NAME_LENGTH} characters (it has ${named.length}).`,
    );
  const teamItem = newTeamItem(deps, { name: named });
  const cap = await teamsCap(deps, user, teamItem.plan);
  const out = await transact(deps, [
    { put: teamItem, when: { exists: false } },
    { put: memberItem(deps, teamItem.id, user, 'owner'), when: { exists: false } },
    countTeam(user, cap),
  ]);
  if (!out.ok) throw teamsCapError(cap);
  return teamFromItem(teamItem);
};
