import { apiRoute } from '@mailstack/core/http/api-route';
import { listOf, ListOf } from '@mailstack/core/schemas/common';
import { InboxParams, InboxThreadSearchRow, SearchInboxThreadsQuery } from '@mailstack/core/schemas/inboxes';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { searchInboxThreads } from '@mailstack/core/domain/mailboxes/inbox-search';

/** GET /inboxes/{id}/threads/search: threads by words, people, attachments and time (bounded: see searchInboxThreads). */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(InboxThreadSearchRow),
  params: InboxParams,
  query: SearchInboxThreadsQuery,
  handler: async ({ deps, auth, params, query }) => {
    const m = await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds);
    const { limit, after, before, folders, labels, read, has_attachment, start_date, end_date, ...people } = query;
    const { items, hasMore } = await searchInboxThreads(
      deps,
      m,
      { folders, labels, read },
      { ...people, hasAttachment: has_attachment, startDate: start_date, endDate: end_date },
      { limit, after, before },
    );
    return listOf(items, hasMore);
  },
});
