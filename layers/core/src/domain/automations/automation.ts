import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';
import { isUuid } from '../../ports/ids.ts';
import type { Graph } from './graph.ts';
import type { AutomationStatus } from './vocabulary.ts';

/** An automation: its name, status and the version of its graph new runs start on. */
export interface Automation {
  readonly id: string;
  readonly teamId: string;
  readonly name: string;
  readonly status: AutomationStatus;
  readonly versionId: string;
  readonly triggerEvent: string;
  readonly createdAt: string;
  readonly updatedAt: string | null;
  /** Since when its trigger listens (enabled, or its trigger event changed): earlier events start no run. Not on the wire. */
  readonly listeningSince?: string | null;
}

/** An automation from its stored item. */
export const automationFromItem = (i: Record<string, any>): Automation => ({
  id: i.id,
  teamId: i.team_id,
  name: i.name,
  status: i.status,
  versionId: i.version_id,
  triggerEvent: i.trigger_event,
  createdAt: i.created_at,
  updatedAt: i.updated_at ?? null,
  listeningSince: i.listening_since ?? null,
});

/** The wire automation as lists show it. */
export const automationRow = (a: Automation) => ({
  id: a.id,
  name: a.name,
  status: a.status,
  created_at: a.createdAt,
  updated_at: a.updatedAt,
});

/** The wire automation with its graph. */
export const automationView = (a: Automation, graph: Graph) => ({
  object: 'automation' as const,
  ...automationRow(a),
  steps: graph.steps.map((s) => ({ key: s.key, type: s.type, config: s.config })),
  connections: graph.connections.map((c) => ({ from: c.from, to: c.to, type: c.type })),
});

/** Reads an automation; 404 for none or another team's. */
export const getAutomation = async (deps: Deps, teamId: string, id: string): Promise<Automation> => {
  const item = isUuid(id) ? await getItem(deps, keys.automation.item(teamId, id)) : undefined;
  if (!item) throw notFound(`Automation ${id}`);
  return automationFromItem(item);
};

/** The graph of one version of an automation. */
export const graphOf = async (deps: Deps, teamId: string, id: string, versionId: string): Promise<Graph> => {
  const item = await getItem(deps, keys.automation.version(teamId, id, versionId), false);
  if (!item) throw new Error(`automation ${id} has no version ${versionId}`);
  return { steps: item.steps, connections: item.connections };
};
