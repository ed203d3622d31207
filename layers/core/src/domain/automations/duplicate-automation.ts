import { saveWrites } from './save-automation.ts';
import { graphOf, getAutomation, type Automation } from './automation.ts';
import type { Deps } from '../../runtime/deps.ts';
import { transact } from '../../table/ops.ts';

/** Copies an automation (its current graph) under a new id, disabled. */
export const duplicateAutomation = async (deps: Deps, teamId: string, id: string): Promise<Automation> => {
  const source = await getAutomation(deps, teamId, id);
  const graph = await graphOf(deps, teamId, id, source.versionId);
  const a: Automation = {
    ...source,
    id: deps.ids.next(),
    name: `${source.name} (copy)`,
    status: 'disabled',
    versionId: deps.ids.next(),
    createdAt: new Date(deps.clock.now()).toISOString(),
    updatedAt: null,
  };
  await transact(deps, saveWrites(a, graph, undefined));
  return a;
};
