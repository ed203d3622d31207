import type { Deps } from '../../runtime/deps.ts';
import {
  NEW_CHECKPOINT,
  pageBroadcasts,
  readBroadcastWithCheckpoint,
  type BroadcastItem,
  type Checkpoint,
} from '../../table/broadcasts.ts';
import type { Page, PageRequest } from '../paging.ts';

/** A page of the team's broadcasts, each with its checkpoint (for the live status). */
export const listBroadcasts = async (
  deps: Deps,
  teamId: string,
  page: PageRequest,
): Promise<Page<{ broadcast: BroadcastItem; checkpoint: Checkpoint }>> => {
  const { items, hasMore } = await pageBroadcasts(deps, teamId, page);
  // Broadcasts still sending are read whole (their counters decide sending or sent); the rest need no more.
  const live = new Map(
    await Promise.all(
      items
        .filter((b) => b.status === 'sending')
        .map(async (b) => [b.id, await readBroadcastWithCheckpoint(deps, teamId, b.id)] as const),
    ),
  );
  return {
    items: items.map((b) => ({
      broadcast: live.get(b.id)?.broadcast ?? b,
      checkpoint: live.get(b.id)?.checkpoint ?? NEW_CHECKPOINT,
    })),
    hasMore,
  };
};
