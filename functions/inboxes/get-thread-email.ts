import { apiRoute } from '@mailstack/core/http/api-route';
import { InboxEmailObject, ThreadEmailParams } from '@mailstack/core/schemas/inboxes';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { getThreadEmail } from '@mailstack/core/domain/mailboxes/get-thread-email';

/** GET /inboxes/{id}/threads/{thread_id}/emails/{email_id}: one email with its bodies; a received one marked untrusted. */
export const handler = apiRoute({
  access: 'full',
  response: InboxEmailObject,
  params: ThreadEmailParams,
  handler: async ({ deps, auth, params }) =>
    getThreadEmail(
      deps,
      await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds),
      params.thread_id,
      params.email_id,
    ),
});
