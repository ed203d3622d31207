import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { updateItem } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';
import { teamFromItem, type Team } from './team.ts';
import type { PlanName } from './plans.ts';

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
