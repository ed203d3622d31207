import { apiRoute } from '@mailstack/core/http/api-route';
import { Deleted } from '@mailstack/core/schemas/common';
import { ThreadParams } from '@mailstack/core/schemas/inboxes';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { removeInboxThread } from '@mailstack/core/domain/mailboxes/remove-inbox-thread';

/** DELETE /inboxes/{id}/threads/{thread_id}: the thread and its messages, for good. */
export const handler = apiRoute({
  access: 'full',
  response: Deleted('inbox_thread'),
  params: ThreadParams,
  errors: ['conflict'],
  handler: async ({ deps, auth, params }) => {
    await removeInboxThread(deps, await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds), params.thread_id);
    return { object: 'inbox_thread', id: params.thread_id, deleted: true };
  },
});
