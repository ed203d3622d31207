import { apiRoute } from '@mailstack/core/http/api-route';
import { listOf, ListOf, Pagination } from '@mailstack/core/schemas/common';
import { InboxDraftRow } from '@mailstack/core/schemas/inbox-drafts';
import { InboxParams } from '@mailstack/core/schemas/inboxes';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { listInboxDrafts } from '@mailstack/core/domain/mailboxes/list-inbox-drafts';

/** GET /inboxes/{id}/drafts: the inbox's drafts not sent yet (the agent API's drafts too), newest first. */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(InboxDraftRow),
  params: InboxParams,
  query: Pagination,
  handler: async ({ deps, auth, params, query }) => {
    const { items, hasMore } = await listInboxDrafts(
      deps,
      await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds),
      query,
    );
    return listOf(items, hasMore);
  },
});
