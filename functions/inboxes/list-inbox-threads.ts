import { apiRoute } from '@mailstack/core/http/api-route';
import { listOf, ListOf } from '@mailstack/core/schemas/common';
import { InboxParams, InboxThreadRow, ListInboxThreadsQuery } from '@mailstack/core/schemas/inboxes';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { listInboxThreads } from '@mailstack/core/domain/mailboxes/list-inbox-threads';

/** GET /inboxes/{id}/threads: the inbox's threads, latest activity first, by folder, label and read state. */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(InboxThreadRow),
  params: InboxParams,
  query: ListInboxThreadsQuery,
  handler: async ({ deps, auth, params, query }) => {
    const m = await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds);
    const { limit, after, before, ...filters } = query;
    const { items, hasMore } = await listInboxThreads(deps, m, filters, { limit, after, before });
    return listOf(items, hasMore);
  },
});
