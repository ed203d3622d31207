import { apiRoute } from '@mailstack/core/http/api-route';
import { listOf, ListOf, Pagination } from '@mailstack/core/schemas/common';
import { InboxRow } from '@mailstack/core/schemas/inboxes';
import { listInboxes } from '@mailstack/core/domain/mailboxes/list-inboxes';
import { inboxRow } from '@mailstack/core/domain/mailboxes/inbox-view';

/** GET /inboxes: the team's inboxes (its mailboxes), newest first. */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(InboxRow),
  query: Pagination,
  handler: async ({ deps, auth, query }) => {
    const { items, hasMore } = await listInboxes(deps, auth.team.id, query, auth.mailboxIds);
    return listOf(items.map(inboxRow), hasMore);
  },
});
