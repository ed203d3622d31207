import { apiRoute } from '@mailstack/core/http/api-route';
import { Deleted } from '@mailstack/core/schemas/common';
import { DraftParams } from '@mailstack/core/schemas/inbox-drafts';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { removeInboxDraft } from '@mailstack/core/domain/mailboxes/remove-inbox-draft';

/** DELETE /inboxes/{id}/drafts/{draft_id}: the draft and its files; its storage is given back. */
export const handler = apiRoute({
  access: 'full',
  response: Deleted('inbox_draft'),
  params: DraftParams,
  errors: ['conflict'],
  handler: async ({ deps, auth, params }) => {
    await removeInboxDraft(deps, await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds), params.draft_id);
    return { object: 'inbox_draft', id: params.draft_id, deleted: true };
  },
});
