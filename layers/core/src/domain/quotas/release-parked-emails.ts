import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryPages, updateItem } from '../../table/ops.ts';
import { sendJob } from '../emails/accept-emails.ts';
import type { SendJob } from '../emails/email.ts';

/**
 * Releases emails parked past the daily cap once their day is over (the release time is stored
 * with them: the UTC midnight after acceptance). Reads only the parked entries now due; each
 * moves back to `queued` in one conditional write and is queued.
 */
export const releaseParkedEmails = async (deps: Deps): Promise<{ released: number }> => {
  const now = new Date(deps.clock.now()).toISOString();
  const jobs: { body: SendJob }[] = [];
  for (let shard = 0; shard < keys.email.dueShards; shard++) {
    for await (const page of queryPages(deps, {
      ...keys.email.parkedDuePartition(shard),
      below: now,
    })) {
      for (const e of page.items) {
        const moved = await updateItem(
          deps,
          keys.email.item(e.team_id, e.id),
          { set: { status: 'queued', updated_at: now, ...keys.email.sendDue(e.id, now) } },
          { attr: 'status', eq: 'queued_quota' },
        );
        // Not moved: canceled or deleted meanwhile; it is no longer parked.
        if (moved) jobs.push(sendJob({ team_id: e.team_id, id: e.id }));
      }
    }
  }
  await deps.queue.send(deps.config.SEND_QUEUE_URL, jobs);
  return { released: jobs.length };
};
