import { apiRoute } from '@mailstack/core/http/api-route';
import { Pagination, listOf } from '@mailstack/core/schemas/common';
import { listDomains } from '@mailstack/core/domain/domains/manage-domain';
import { domainSummary } from '@mailstack/core/domain/domains/domain';

/** GET /domains */
export const handler = apiRoute({
  access: 'full',
  query: Pagination,
  handler: async ({ deps, auth, query }) => {
    const { domains, hasMore } = await listDomains(deps, auth.team.id, query);
    return listOf(domains.map(domainSummary), hasMore);
  },
});
