import { apiRoute } from '@mailstack/core/http/api-route';
import { InboxThreadObject, ThreadParams, UpdateInboxThreadRequest } from '@mailstack/core/schemas/inboxes';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { updateInboxThread } from '@mailstack/core/domain/mailboxes/update-inbox-thread';

/** PATCH /inboxes/{id}/threads/{thread_id}: mark read or unread, move to another folder. */
export const handler = apiRoute({
  access: 'full',
  response: InboxThreadObject,
  params: ThreadParams,
  body: UpdateInboxThreadRequest,
  errors: ['conflict'],
  handler: async ({ deps, auth, params, body }) =>
    updateInboxThread(deps, await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds), params.thread_id, body),
});
