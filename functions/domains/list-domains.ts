import { apiRoute } from '@mailstack/core/http/api-route';
import { listOf, ListOf, Pagination } from '@mailstack/core/schemas/common';
import { listDomains } from '@mailstack/core/domain/domains/list-domains';
import { domainSummary } from '@mailstack/core/domain/domains/domain';
import { DomainSummary } from '@mailstack/core/schemas/domains';

/** GET /domains */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(DomainSummary),
  query: Pagination,
  handler: async ({ deps, auth, query }) => {
    const { items, hasMore } = await listDomains(deps, auth.team.id, query);
    return listOf(items.map(domainSummary), hasMore);
  },
});
