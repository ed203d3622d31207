import type { Deps } from '../../../runtime/deps.ts';
import { keys } from '../../../table/keys.ts';
import { queryPages } from '../../../table/ops.ts';
import { sendJob } from '../accept-emails.ts';
import type { SendJob } from '../email.ts';

/**
 * Finds emails still before the provider past their due time plus the grace period (stored but
 * never queued, queued but the message lost, a worker that died holding the claim, a schedule
 * that did not fire) and queues them again; the send worker's claim makes a duplicate message
 * harmless. It reads only the due index's entries past due, never mail that is not due yet.
 */
export const sweepStuckEmails = async (deps: Deps): Promise<{ requeued: number }> => {
  const cutoff = new Date(deps.clock.now() - deps.config.SWEEP_AFTER_SECONDS * 1000).toISOString();
  const jobs: { body: SendJob }[] = [];
  for (let shard = 0; shard < keys.email.dueShards; shard++) {
    for await (const page of queryPages(deps, { index: 'gsi3', pk: keys.email.sendDuePartition(shard), below: cutoff })) {
      jobs.push(...page.items.map((e) => sendJob({ team_id: e.team_id, id: e.id })));
    }
  }
  await deps.queue.send(deps.config.SEND_QUEUE_URL, jobs);
  return { requeued: jobs.length };
};
