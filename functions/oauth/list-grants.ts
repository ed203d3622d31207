import { apiRoute } from '@mailstack/core/http/api-route';
import { listOf, ListOf, Pagination } from '@mailstack/core/schemas/common';
import { listGrants } from '@mailstack/core/domain/oauth/list-grants';
import { grantView } from '@mailstack/core/domain/oauth/grant';
import { pageOf } from '@mailstack/core/domain/paging';
import { OAuthGrantRow } from '@mailstack/core/schemas/oauth';

/** GET /oauth/grants: the team's OAuth grants (MCP clients people connected), newest first, revoked ones included. */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(OAuthGrantRow),
  query: Pagination,
  handler: async ({ deps, auth, query }) => {
    const { items, hasMore } = pageOf(await listGrants(deps, auth.team.id), query);
    return listOf(items.map(grantView), hasMore);
  },
});
