import type { Deps } from '../../runtime/deps.ts';
import { notFound } from '../../errors/api-error.ts';
import { markCanceled, readBroadcast, readBroadcastWithCheckpoint, releaseLane } from '../../table/broadcasts.ts';
import { canceledRemaining } from './broadcast-view.ts';
import { fanOutBroadcast, fanOutScheduleName, kickFanOut } from './fan-out.ts';

/**
 * How long a cancel counts the rest of the segment itself, so its answer's canceled_remaining
 * leaves out the contacts the broadcast would have skipped; a longer segment is counted on by the
 * fan-out worker, and the answer is then an upper bound the broadcast's reads settle.
 */
const CANCEL_COUNT_BUDGET_MS = 2_000;

/**
 * Cancels a broadcast in any state (spec §3): a draft simply becomes canceled (nothing was
 * planned: canceled_remaining 0); for a sent or scheduled one the fan-out stops between pages
 * (counting the rest, here first within CANCEL_COUNT_BUDGET_MS), mail not yet at the provider is
 * un-queued, the region lane is released. Answers canceled_remaining (eligible recipients not
 * sent to; final once the rest of the segment is counted). Canceling a canceled one answers the
 * same again.
 */
export const cancelBroadcast = async (
  deps: Deps,
  teamId: string,
  id: string,
): Promise<{ object: 'broadcast'; id: string; canceled_remaining: number }> => {
  const found = await readBroadcast(deps, teamId, id);
  if (!found) throw notFound(`Broadcast ${id}`);
  // A draft sent at this very moment is no longer a draft: canceled as a sending one instead.
  if (
    found.status === 'draft' &&
    !(await markCanceled(deps, teamId, id, new Date(deps.clock.now()).toISOString(), 'draft'))
  )
    return cancelBroadcast(deps, teamId, id);
  if (found.status === 'sending') {
    await markCanceled(deps, teamId, id, new Date(deps.clock.now()).toISOString());
    await deps.scheduler.cancel(fanOutScheduleName(id));
    if (found.region) await releaseLane(deps, found.region, id);
    // A canceled fan-out only reads and counts: done here within a budget (past it, the step hands
    // over to the fan-out worker itself); if counting here fails, the worker does it all.
    const job = { teamId, broadcastId: id };
    await fanOutBroadcast(deps, job, { budgetMs: CANCEL_COUNT_BUDGET_MS }).catch(() => kickFanOut(deps, job));
  }
  const { broadcast, checkpoint } = await readBroadcastWithCheckpoint(deps, teamId, id);
  return { object: 'broadcast' as const, id, canceled_remaining: canceledRemaining(broadcast!, checkpoint) };
};
