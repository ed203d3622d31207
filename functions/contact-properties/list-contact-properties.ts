import { apiRoute } from '@mailstack/core/http/api-route';
import { Pagination, listOf } from '@mailstack/core/schemas/common';
import { contactPropertyView, listContactProperties } from '@mailstack/core/domain/contacts/contact-properties';

/** GET /contact-properties */
export const handler = apiRoute({
  access: 'full',
  query: Pagination,
  handler: async ({ deps, auth, query }) => {
    const { properties, hasMore } = await listContactProperties(deps, auth.team.id, query);
    return listOf(properties.map(contactPropertyView), hasMore);
  },
});
