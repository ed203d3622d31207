import { getAutomation, type Automation } from './automation.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { transact, type Write } from '../../table/ops.ts';
import { endRunsPage } from './wind-down.ts';

/**
 * Deletes an automation: gone from the API at once; its running runs are cancelled as a stop
 * cancels them, then its versions, runs and their steps are removed by jobs (wind-down.ts).
 */
export const deleteAutomation = async (deps: Deps, teamId: string, id: string): Promise<Automation> => {
  const a = await getAutomation(deps, teamId, id);
  const writes: Write[] = [{ delete: keys.automation.item(teamId, id) }];
  if (a.status === 'enabled') writes.push({ delete: keys.automation.trigger(teamId, a.triggerEvent, id) });
  await transact(deps, writes);
  await endRunsPage(deps, { teamId, automationId: id, purge: true });
  return a;
};
