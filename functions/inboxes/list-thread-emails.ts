import { apiRoute } from '@mailstack/core/http/api-route';
import { listOf, ListOf, Pagination } from '@mailstack/core/schemas/common';
import { InboxEmailObject, ThreadParams } from '@mailstack/core/schemas/inboxes';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { listThreadEmails } from '@mailstack/core/domain/mailboxes/list-thread-emails';

/** GET /inboxes/{id}/threads/{thread_id}/emails: the thread's received and sent emails, oldest first. */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(InboxEmailObject),
  params: ThreadParams,
  query: Pagination,
  handler: async ({ deps, auth, params, query }) => {
    const m = await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds);
    const { items, hasMore } = await listThreadEmails(deps, m, params.thread_id, query);
    return listOf(items, hasMore);
  },
});
