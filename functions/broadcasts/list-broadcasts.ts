import { apiRoute } from '@mailstack/core/http/api-route';
import { BroadcastRow } from '@mailstack/core/schemas/broadcasts';
import { Pagination, listOf, ListOf } from '@mailstack/core/schemas/common';
import { broadcastRow } from '@mailstack/core/domain/broadcasts/broadcast-view';
import { listBroadcasts } from '@mailstack/core/domain/broadcasts/list-broadcasts';

/** GET /broadcasts */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(BroadcastRow),
  query: Pagination,
  handler: async ({ deps, auth, query }) => {
    const { items, hasMore } = await listBroadcasts(deps, auth.team.id, query);
    const now = deps.clock.now();
    return listOf(
      items.map((x) => broadcastRow(x.broadcast, x.checkpoint, now)),
      hasMore,
    );
  },
});
