import { apiRoute } from '@mailstack/core/http/api-route';
import { listOf, ListOf, Pagination } from '@mailstack/core/schemas/common';
import { ReceivedEmailRow } from '@mailstack/core/schemas/receiving';
import { listReceivedEmails } from '@mailstack/core/domain/mailboxes/list-received-emails';

/** GET /emails/receiving: the team's received emails (every mailbox), newest first. */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(ReceivedEmailRow),
  query: Pagination,
  handler: async ({ deps, auth, query }) => {
    const { items, hasMore } = await listReceivedEmails(deps, auth.team.id, query, auth.mailboxIds);
    return listOf(items, hasMore);
  },
});
