import type { Deps } from '../../runtime/deps.ts';
import { notFound } from '../../errors/api-error.ts';
import { readBroadcastWithCheckpoint, type BroadcastItem, type Checkpoint } from '../../table/broadcasts.ts';

/** Reads a broadcast and its fan-out checkpoint; another team's answers 404. */
export const getBroadcast = async (
  deps: Deps,
  teamId: string,
  id: string,
): Promise<{ broadcast: BroadcastItem; checkpoint: Checkpoint }> => {
  const { broadcast, checkpoint } = await readBroadcastWithCheckpoint(deps, teamId, id);
  if (!broadcast) throw notFound(`Broadcast ${id}`);
  return { broadcast, checkpoint };
};
