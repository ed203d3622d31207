import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, transact, type Write } from '../../table/ops.ts';
import { notFound, validationError } from '../../errors/api-error.ts';
import { queryPage } from '../../table/query-page.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Page } from '../paging.ts';
import { isUuid } from '../../ports/ids.ts';
import { getTemplate } from '../templates/templates.ts';
import { getSegment } from '../segments/segments.ts';
import { getTopic } from '../topics/topics.ts';
import { checkGraph, triggerEvent, type Graph } from './graph.ts';
import { endRunsPage } from './wind-down.ts';
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
}

const fromItem = (i: Record<string, any>): Automation => ({
  id: i.id,
  teamId: i.team_id,
  name: i.name,
  status: i.status,
  versionId: i.version_id,
  triggerEvent: i.trigger_event,
  createdAt: i.created_at,
  updatedAt: i.updated_at ?? null,
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

/**
 * Checks what a graph names: its send steps' templates (by id or alias) and topics, its
 * add_to_segment steps' segments, all the team's own; 422 naming the step otherwise.
 */
const checkReferences = async (deps: Deps, teamId: string, graph: Graph): Promise<void> => {
  for (const s of graph.steps) {
    const missing = async (what: string, read: () => Promise<unknown>) => {
      try {
        await read();
      } catch {
        throw validationError(`Step \`${s.key}\`: ${what}`);
      }
    };
    if (s.type === 'send_email') {
      await missing(`\`config.template.id\` names no template of this team (${s.config.template.id}).`, () =>
        getTemplate(deps, teamId, s.config.template.id),
      );
      if (s.config.topic_id)
        await missing(`\`config.topic_id\` names no topic of this team (${s.config.topic_id}).`, () =>
          isUuid(s.config.topic_id) ? getTopic(deps, teamId, s.config.topic_id) : Promise.reject(),
        );
    }
    if (s.type === 'add_to_segment')
      await missing(`\`config.segment_id\` names no segment of this team (${s.config.segment_id}).`, () =>
        isUuid(s.config.segment_id) ? getSegment(deps, teamId, s.config.segment_id) : Promise.reject(),
      );
  }
};

/** The graph as stored: each connection's type filled in. */
const normalized = (graph: {
  steps: readonly { key: string; type: Graph['steps'][number]['type']; config: Record<string, unknown> }[];
  connections: readonly { from: string; to: string; type?: Graph['connections'][number]['type'] }[];
}): Graph => ({
  steps: graph.steps.map((s) => ({ key: s.key, type: s.type, config: s.config })),
  connections: graph.connections.map((c) => ({ from: c.from, to: c.to, type: c.type ?? 'default' })),
});

/** The writes that save an automation and a new version of its graph, moving its trigger index. */
const saveWrites = (a: Automation, graph: Graph | undefined, before: Automation | undefined): Write[] => {
  const writes: Write[] = [
    {
      put: {
        ...keys.automation.item(a.teamId, a.id),
        type: 'automation',
        id: a.id,
        team_id: a.teamId,
        name: a.name,
        status: a.status,
        version_id: a.versionId,
        trigger_event: a.triggerEvent,
        created_at: a.createdAt,
        updated_at: a.updatedAt,
      },
    },
  ];
  if (graph)
    writes.push({
      put: {
        ...keys.automation.version(a.teamId, a.id, a.versionId),
        type: 'automation_version',
        steps: graph.steps,
        connections: graph.connections,
      },
    });
  if (before?.status === 'enabled' && (a.status !== 'enabled' || before.triggerEvent !== a.triggerEvent))
    writes.push({ delete: keys.automation.trigger(a.teamId, before.triggerEvent, a.id) });
  if (a.status === 'enabled')
    writes.push({
      put: {
        ...keys.automation.trigger(a.teamId, a.triggerEvent, a.id),
        type: 'automation_trigger',
        automation_id: a.id,
      },
    });
  return writes;
};

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

/** Reads an automation; 404 for none or another team's. */
export const getAutomation = async (deps: Deps, teamId: string, id: string): Promise<Automation> => {
  const item = isUuid(id) ? await getItem(deps, keys.automation.item(teamId, id)) : undefined;
  if (!item) throw notFound(`Automation ${id}`);
  return fromItem(item);
};

/** The graph of one version of an automation. */
export const graphOf = async (deps: Deps, teamId: string, id: string, versionId: string): Promise<Graph> => {
  const item = await getItem(deps, keys.automation.version(teamId, id, versionId), false);
  if (!item) throw new Error(`automation ${id} has no version ${versionId}`);
  return { steps: item.steps, connections: item.connections };
};

/** A page of the team's automations, newest first, optionally of one status. */
export const listAutomations = async (
  deps: Deps,
  teamId: string,
  page: Pagination,
  status: AutomationStatus | undefined,
): Promise<Page<Automation>> => {
  const { items, hasMore } = await queryPage(
    deps,
    {
      pk: keys.automation.partition(teamId),
      prefix: keys.automation.prefix,
      ...(status ? { filter: { attr: 'status', eq: status } } : {}),
    },
    page,
  );
  return { items: items.map(fromItem), hasMore };
};

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

/**
 * Stops an automation: disabled (no new runs), and its running runs cancelled: the first page of
 * its runs here, the rest by jobs of the automations queue (wind-down.ts).
 */
export const stopAutomation = async (deps: Deps, teamId: string, id: string): Promise<Automation> => {
  const a = await updateAutomation(deps, teamId, id, { status: 'disabled' });
  await endRunsPage(deps, { teamId, automationId: id, purge: false });
  return a;
};

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
