import { apiRoute } from '@mailstack/core/http/api-route';
import { InboxThreadObject, ThreadParams } from '@mailstack/core/schemas/inboxes';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { getInboxThread } from '@mailstack/core/domain/mailboxes/get-inbox-thread';

/** GET /inboxes/{id}/threads/{thread_id} */
export const handler = apiRoute({
  access: 'full',
  response: InboxThreadObject,
  params: ThreadParams,
  handler: async ({ deps, auth, params }) =>
    getInboxThread(deps, await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds), params.thread_id),
});
