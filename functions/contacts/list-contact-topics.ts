import { apiRoute } from '@mailstack/core/http/api-route';
import { ContactParams, ContactTopic } from '@mailstack/core/schemas/contacts';
import { listOf, ListOf, WholeListQuery } from '@mailstack/core/schemas/common';
import { loadContact } from '@mailstack/core/domain/contacts/contact';
import { contactTopics } from '@mailstack/core/domain/topics/contact-topics';
import { pageOf } from '@mailstack/core/domain/paging';

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
    const topics = await contactTopics(deps, auth.team.id, contact.id);
    if (query.limit === undefined && query.after === undefined && query.before === undefined)
      return listOf(topics, false);
    const { items, hasMore } = pageOf(topics, { ...query, limit: query.limit ?? 20 });
    return listOf(items, hasMore);
  },
});
