import * as v from 'valibot';
import { apiRoute } from '@mailstack/core/http/api-route';
import { listOf, ListOf, Pagination } from '@mailstack/core/schemas/common';
import { expandContacts } from '@mailstack/core/domain/contacts/contact-views';
import { listContacts } from '@mailstack/core/domain/contacts/list-contacts';
import { ContactListItem } from '@mailstack/core/schemas/contacts';

/** GET /segments/{id}/contacts (contacts.list({ segmentId })) and its legacy alias GET /audiences/{id}/contacts */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(ContactListItem),
  params: v.object({ id: v.pipe(v.string(), v.uuid('must be a segment (audience) id.')) }),
  query: Pagination,
  handler: async ({ deps, auth, params, query }) => {
    const { items, hasMore } = await listContacts(deps, auth.team.id, query, params.id);
    return listOf(await expandContacts(deps, auth.team.id, items, []), hasMore);
  },
});
