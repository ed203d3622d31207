import { apiRoute } from '@mailstack/core/http/api-route';
import { listOf, ListOf, Pagination } from '@mailstack/core/schemas/common';
import { contactPropertyView } from '@mailstack/core/domain/contacts/contact-property';
import { listContactProperties } from '@mailstack/core/domain/contacts/list-contact-properties';
import { ContactPropertyObject } from '@mailstack/core/schemas/contacts';

/** GET /contact-properties */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(ContactPropertyObject),
  query: Pagination,
  handler: async ({ deps, auth, query }) => {
    const { items, hasMore } = await listContactProperties(deps, auth.team.id, query);
    return listOf(items.map(contactPropertyView), hasMore);
  },
});
