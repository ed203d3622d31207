import { apiRoute } from '@mailstack/core/http/api-route';
import { listOf, ListOf, Pagination } from '@mailstack/core/schemas/common';
import { listEmails } from '@mailstack/core/domain/emails/list-emails';
import { emailView } from '@mailstack/core/domain/emails/email-view';
import { EmailObject } from '@mailstack/core/schemas/emails';

/** GET /emails */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(EmailObject),
  query: Pagination,
  handler: async ({ deps, auth, query }) => {
    const { items, hasMore } = await listEmails(deps, auth.team.id, query, { bodies: true });
    return listOf(items.map(emailView), hasMore);
  },
});
