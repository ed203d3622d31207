import { saveWrites, normalized, checkReferences } from './save-automation.ts';
import type { Automation } from './automation.ts';
import type { Deps } from '../../runtime/deps.ts';
import { transact } from '../../table/ops.ts';
import { checkGraph, triggerEvent, type Graph } from './graph.ts';
import type { AutomationStatus } from './vocabulary.ts';

/** Creates an automation from a graph checked whole (422 naming the step otherwise). */
export const createAutomation = async (
  deps: Deps,
  teamId: string,
  input: {
    name: string;
    status: AutomationStatus;
    steps: Graph['steps'];
    connections: Parameters<typeof normalized>[0]['connections'];
  },
): Promise<Automation> => {
  const graph = normalized(input);
  checkGraph(graph);
  await checkReferences(deps, teamId, graph);
  const a: Automation = {
    id: deps.ids.next(),
    teamId,
    name: input.name,
    status: input.status,
    versionId: deps.ids.next(),
    triggerEvent: triggerEvent(graph),
    createdAt: new Date(deps.clock.now()).toISOString(),
    updatedAt: null,
  };
  await transact(deps, saveWrites(a, graph, undefined));
  return a;
};
