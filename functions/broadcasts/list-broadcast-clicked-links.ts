import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams, ListOf, listOf, Pagination } from '@mailstack/core/schemas/common';
import { BroadcastClickedLink } from '@mailstack/core/schemas/broadcasts';
import { listClickedLinks } from '@mailstack/core/domain/broadcasts/recipients';

/** GET /broadcasts/{id}/clicked-links */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(BroadcastClickedLink),
  params: IdParams,
  query: Pagination,
  handler: async ({ deps, auth, params, query }) => {
    const { items, hasMore } = await listClickedLinks(deps, auth.team.id, params.id, query);
    return listOf(items, hasMore);
  },
});
