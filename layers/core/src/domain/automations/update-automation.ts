import { saveWrites, normalized, checkReferences } from './save-automation.ts';
import { getAutomation, type Automation } from './automation.ts';
import type { Deps } from '../../runtime/deps.ts';
import { transact } from '../../table/ops.ts';
import { checkGraph, triggerEvent, type Graph } from './graph.ts';
import type { AutomationStatus } from './vocabulary.ts';

/**
 * Changes an automation: its name, its status, or its graph (a new version: runs already
 * started finish on the version they started on; new runs take the new one).
 */
export const updateAutomation = async (
  deps: Deps,
  teamId: string,
  id: string,
  change: {
    name?: string | undefined;
    status?: AutomationStatus | undefined;
    steps?: Graph['steps'] | undefined;
    connections?: Parameters<typeof normalized>[0]['connections'] | undefined;
  },
): Promise<Automation> => {
  const before = await getAutomation(deps, teamId, id);
  const graph =
    change.steps && change.connections
      ? normalized({ steps: change.steps, connections: change.connections })
      : undefined;
  if (graph) {
    checkGraph(graph);
    await checkReferences(deps, teamId, graph);
  }
  const a: Automation = {
    ...before,
    name: change.name ?? before.name,
    status: change.status ?? before.status,
    ...(graph ? { versionId: deps.ids.next(), triggerEvent: triggerEvent(graph) } : {}),
    updatedAt: new Date(deps.clock.now()).toISOString(),
  };
  await transact(deps, saveWrites(a, graph, before));
  return a;
};
