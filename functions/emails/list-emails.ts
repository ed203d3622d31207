import { apiRoute } from '@mailstack/core/http/api-route';
import { Pagination, listOf } from '@mailstack/core/schemas/common';
import { listEmails } from '@mailstack/core/domain/emails/manage-email';
import { emailView } from '@mailstack/core/domain/emails/email-view';

/** GET /emails */
export const handler = apiRoute({
  access: 'full',
  query: Pagination,
  handler: async ({ deps, auth, query }) => {
    const { emails, hasMore } = await listEmails(deps, auth.team.id, query);
    return listOf(emails.map(emailView), hasMore);
  },
});
