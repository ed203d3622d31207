import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryPages, updateItem } from '../../table/ops.ts';
import { sendJob } from './accept-emails.ts';
import type { SendJob } from './email.ts';

/**
 * Ends the review of a team's held emails: they go out (the operator's decision, `npm run admin
 * -- teams release`). Reads only the team's held list, not its history.
 */
export const releaseHeldEmails = async (deps: Deps, teamId: string): Promise<number> => {
  const now = new Date(deps.clock.now()).toISOString();
  const jobs: { body: SendJob }[] = [];
  for await (const page of queryPages(deps, { ...keys.email.heldPartition(teamId) })) {
    for (const e of page.items) {
      const moved = await updateItem(
        deps,
        keys.email.item(teamId, e.id),
        {
          set: { status: 'queued', updated_at: now, ...keys.email.sendDue(e.id, now) },
          remove: keys.email.heldAttributes,
        },
        { attr: 'status', eq: 'held' },
      );
      if (moved) jobs.push(sendJob({ team_id: teamId, id: e.id }));
    }
  }
  await deps.queue.send(deps.config.SEND_QUEUE_URL, jobs);
  return jobs.length;
};
