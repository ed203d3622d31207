import { apiRoute } from '@mailstack/core/http/api-route';
import { listOf, ListOf, Pagination } from '@mailstack/core/schemas/common';
import { InboxLabelObject } from '@mailstack/core/schemas/inbox-labels';
import { InboxParams } from '@mailstack/core/schemas/inboxes';
import { pageOf } from '@mailstack/core/domain/paging';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { inboxLabelView } from '@mailstack/core/domain/mailboxes/inbox-label';
import { listInboxLabels } from '@mailstack/core/domain/mailboxes/list-inbox-labels';

/** GET /inboxes/{id}/labels: the inbox's labels, oldest first. */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(InboxLabelObject),
  params: InboxParams,
  query: Pagination,
  handler: async ({ deps, auth, params, query }) => {
    const m = await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds);
    const { items, hasMore } = pageOf(await listInboxLabels(deps, m), query);
    return listOf(items.map(inboxLabelView), hasMore);
  },
});
