import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { putItem } from '../../table/ops.ts';
import { teamFromItem, type Team } from './team.ts';
import type { PlanName } from './plans.ts';

/** The stored item of a new team (free plan unless told). */
export const newTeamItem = (deps: Deps, input: { name: string; plan?: PlanName | undefined }) => {
  const id = deps.ids.next();
  return {
    ...keys.team.item(id),
    ...keys.team.listing(id),
    type: 'team',
    id,
    name: input.name,
    plan: input.plan ?? 'free',
    status: 'active',
    overage_enabled: false,
    created_at: new Date(deps.clock.now()).toISOString(),
  };
};

/** Creates a team on the free plan (the operator may change it). */
export const createTeam = async (deps: Deps, input: { name: string; plan?: PlanName }): Promise<Team> => {
  const item = newTeamItem(deps, input);
  const id = item.id;
  if (!(await putItem(deps, item, { exists: false }))) throw new Error(`team id ${id} is already taken`);
  return teamFromItem(item);
};
