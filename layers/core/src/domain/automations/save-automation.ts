import type { Automation } from './automation.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import type { Write } from '../../table/ops.ts';
import { validationError } from '../../errors/api-error.ts';
import { isUuid } from '../../ports/ids.ts';
import { getTemplate } from '../templates/get-template.ts';
import { getSegment } from '../segments/segment.ts';
import { getTopic } from '../topics/topic.ts';
import type { Graph } from './graph.ts';

/**
 * Checks what a graph names: its send steps' templates (by id or alias) and topics, its
 * add_to_segment steps' segments, all the team's own; 422 naming the step otherwise.
 */
export const checkReferences = async (deps: Deps, teamId: string, graph: Graph): Promise<void> => {
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
export const normalized = (graph: {
  steps: readonly { key: string; type: Graph['steps'][number]['type']; config: Record<string, unknown> }[];
  connections: readonly { from: string; to: string; type?: Graph['connections'][number]['type'] }[];
}): Graph => ({
  steps: graph.steps.map((s) => ({ key: s.key, type: s.type, config: s.config })),
  connections: graph.connections.map((c) => ({ from: c.from, to: c.to, type: c.type ?? 'default' })),
});

/**
 * Since when an automation's trigger listens: the save that enabled it or moved it to another
 * event; kept across saves that change neither. An event accepted before it starts no run, though
 * the engine may read it after (its queue runs behind the API).
 */
const listeningSince = (a: Automation, before: Automation | undefined): string | null => {
  if (a.status !== 'enabled') return null;
  if (before?.status === 'enabled' && before.triggerEvent === a.triggerEvent) return before.listeningSince ?? null;
  return a.updatedAt ?? a.createdAt;
};

/** The writes that save an automation and a new version of its graph, moving its trigger index. */
export const saveWrites = (a: Automation, graph: Graph | undefined, before: Automation | undefined): Write[] => {
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
        listening_since: listeningSince(a, before),
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
