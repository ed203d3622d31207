import * as v from 'valibot';
import { apiRoute } from '@mailstack/core/http/api-route';
import { listOf, ListOf, Pagination } from '@mailstack/core/schemas/common';
import { ListSuppressionsQuery, SuppressionObject } from '@mailstack/core/schemas/suppressions';
import { listSuppressions } from '@mailstack/core/domain/suppressions/list-suppressions';
import { suppressionView } from '@mailstack/core/domain/suppressions/suppression-view';

/** GET /suppressions (?origin=) */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(SuppressionObject),
  query: v.intersect([Pagination, ListSuppressionsQuery]),
  handler: async ({ deps, auth, query }) => {
    const { items, hasMore } = await listSuppressions(deps, auth.team.id, query, query.origin);
    return listOf(items.map(suppressionView), hasMore);
  },
});
