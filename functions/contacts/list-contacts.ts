import * as v from 'valibot';
import { apiRoute } from '@mailstack/core/http/api-route';
import { listOf, ListOf, Pagination } from '@mailstack/core/schemas/common';
import { ContactListItem, Include } from '@mailstack/core/schemas/contacts';
import { expandContacts } from '@mailstack/core/domain/contacts/contact-views';
import { listContacts } from '@mailstack/core/domain/contacts/list-contacts';

const Query = v.intersect([
  Pagination,
  v.object({ include: Include, segment_id: v.optional(v.pipe(v.string(), v.uuid('must be a segment id.'))) }),
]);

/** GET /contacts (include=properties,topics; segment_id) */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(ContactListItem),
  query: Query,
  handler: async ({ deps, auth, query }) => {
    const { items, hasMore } = await listContacts(deps, auth.team.id, query, query.segment_id);
    return listOf(await expandContacts(deps, auth.team.id, items, query.include), hasMore);
  },
});
