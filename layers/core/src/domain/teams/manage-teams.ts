import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { putItem, queryAll, updateItem } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';
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

/** Lists every team (operator only). */
export const listTeams = async (deps: Deps): Promise<Team[]> =>
  (await queryAll(deps, { ...keys.team.listPartition() })).map(teamFromItem);

/** Changes a team's plan, status, overage switch or owner addresses; throws when the team does not exist. */
export const updateTeam = async (
  deps: Deps,
  teamId: string,
  change: {
    plan?: PlanName;
    status?: Team['status'];
    overageEnabled?: boolean;
    paymentBlocked?: boolean;
    ownerEmails?: readonly string[];
  },
): Promise<Team> => {
  const set = Object.fromEntries(
    Object.entries({
      plan: change.plan,
      status: change.status,
      overage_enabled: change.overageEnabled,
      payment_blocked: change.paymentBlocked,
      owner_emails: change.ownerEmails === undefined ? undefined : [...change.ownerEmails],
    }).filter(([, value]) => value !== undefined),
  );
  const out = await updateItem(deps, keys.team.item(teamId), { set }, { exists: true });
  if (!out) throw notFound('Team');
  return teamFromItem(out);
};
