import type { Deps } from '../../../runtime/deps.ts';
import { keys } from '../../../table/keys.ts';
import { queryPages } from '../../../table/ops.ts';
import { sendJob } from '../accept-emails.ts';
import { sendQueueOf, type SendJob } from '../email.ts';

/**
 * Finds emails still before the provider past their due time plus the grace period (stored but
 * never queued, queued but the message lost, a worker that died holding the claim, a schedule
 * that did not fire) and queues them again; the send worker's claim makes a duplicate message
 * harmless. It reads only the due index's entries past due, never mail that is not due yet.
 */
export const sweepStuckEmails = async (deps: Deps): Promise<{ requeued: number }> => {
  const cutoff = new Date(deps.clock.now() - deps.config.SWEEP_AFTER_SECONDS * 1000).toISOString();
  // Broadcast mail goes back on its own queue, so transactional mail never waits behind it.
  const jobs = new Map<string, { body: SendJob }[]>();
  let requeued = 0;
  for (let shard = 0; shard < keys.email.dueShards; shard++) {
    for await (const page of queryPages(deps, {
      ...keys.email.sendDuePartition(shard),
      below: cutoff,
    })) {
      for (const e of page.items) {
        const queue = sendQueueOf(deps.config, e);
        jobs.set(queue, [...(jobs.get(queue) ?? []), sendJob({ team_id: e.team_id, id: e.id })]);
        requeued++;
      }
    }
  }
  for (const [queue, list] of jobs) await deps.queue.send(queue, list);
  return { requeued };
};
