import { apiRoute } from '@mailstack/core/http/api-route';
import { listOf, ListOf, WholeListQuery } from '@mailstack/core/schemas/common';
import { InboxLabelObject } from '@mailstack/core/schemas/inbox-labels';
import { InboxParams } from '@mailstack/core/schemas/inboxes';
import { wholeOrPage } from '@mailstack/core/domain/paging';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { inboxLabelView } from '@mailstack/core/domain/mailboxes/inbox-label';
import { listInboxLabels } from '@mailstack/core/domain/mailboxes/list-inbox-labels';

/**
 * GET /inboxes/{id}/labels: the inbox's labels, oldest first, all of them (at most 100; the SDK
 * asks with no query); `limit`, `after` or `before` page them as other lists.
 */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(InboxLabelObject),
  params: InboxParams,
  query: WholeListQuery,
  handler: async ({ deps, auth, params, query }) => {
    const m = await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds);
    const { items, hasMore } = wholeOrPage(await listInboxLabels(deps, m), query);
    return listOf(items.map(inboxLabelView), hasMore);
  },
});
