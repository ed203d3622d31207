import { apiRoute } from '@mailstack/core/http/api-route';
import { ContactParams, ContactTopic } from '@mailstack/core/schemas/contacts';
import { listOf, ListOf, WholeListQuery } from '@mailstack/core/schemas/common';
import { loadContact } from '@mailstack/core/domain/contacts/contact';
import { contactTopics } from '@mailstack/core/domain/topics/contact-topics';
import { wholeOrPage } from '@mailstack/core/domain/paging';

/**
 * GET /contacts/{id or email}/topics: every topic with the effective subscription, in one answer
 * (`has_more: false`, spec §4); `limit`, `after` or `before` page it as other lists.
 */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(ContactTopic),
  params: ContactParams,
  query: WholeListQuery,
  handler: async ({ deps, auth, params, query }) => {
    const contact = await loadContact(deps, auth.team.id, params.id);
    const { items, hasMore } = wholeOrPage(await contactTopics(deps, auth.team.id, contact.id), query);
    return listOf(items, hasMore);
  },
});
