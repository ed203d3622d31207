import type { EventMessage } from './deliver.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryPages } from '../../table/ops.ts';

/**
 * Queues again, for fan-out, the events recorded more than the grace period ago and never fanned
 * out (a process that died between storing an event and queuing it). Reads only the sparse
 * index of such events, past the grace period.
 */
export const sweepUndispatchedEvents = async (deps: Deps): Promise<{ requeued: number }> => {
  const cutoff = new Date(deps.clock.now() - deps.config.SWEEP_AFTER_SECONDS * 1000).toISOString();
  const messages: { body: EventMessage }[] = [];
  for (let shard = 0; shard < keys.event.dueShards; shard++) {
    for await (const page of queryPages(deps, {
      ...keys.event.undispatchedPartition(shard),
      below: cutoff,
    })) {
      messages.push(
        ...page.items.map((e) => ({
          body: { eventId: e.id as string, teamId: e.team_id as string, type: e.event_type as string },
        })),
      );
    }
  }
  if (deps.config.EVENTS_QUEUE_URL) await deps.queue.send(deps.config.EVENTS_QUEUE_URL, messages);
  return { requeued: messages.length };
};
