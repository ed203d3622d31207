import { apiRoute } from '@mailstack/core/http/api-route';
import { Deleted } from '@mailstack/core/schemas/common';
import { InboxParams } from '@mailstack/core/schemas/inboxes';
import { removeInbox } from '@mailstack/core/domain/mailboxes/remove-inbox';

/** DELETE /inboxes/{id}: the mailbox goes as in the dashboard (drafts discarded, received mail kept). */
export const handler = apiRoute({
  access: 'full',
  response: Deleted('inbox'),
  params: InboxParams,
  handler: async ({ deps, auth, params }) => ({
    object: 'inbox',
    id: (await removeInbox(deps, auth.team.id, params.id)).id,
    deleted: true,
  }),
});
