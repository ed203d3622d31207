import { updateAutomation } from './update-automation.ts';
import type { Automation } from './automation.ts';
import type { Deps } from '../../runtime/deps.ts';
import { endRunsPage } from './wind-down.ts';

/**
 * Stops an automation: disabled (no new runs), and its running runs cancelled: the first page of
 * its runs here, the rest by jobs of the automations queue (wind-down.ts).
 */
export const stopAutomation = async (deps: Deps, teamId: string, id: string): Promise<Automation> => {
  const a = await updateAutomation(deps, teamId, id, { status: 'disabled' });
  await endRunsPage(deps, { teamId, automationId: id, purge: false });
  return a;
};
