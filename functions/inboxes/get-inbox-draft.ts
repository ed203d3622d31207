import { apiRoute } from '@mailstack/core/http/api-route';
import { DraftParams, InboxDraftObject } from '@mailstack/core/schemas/inbox-drafts';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { getInboxDraft } from '@mailstack/core/domain/mailboxes/get-inbox-draft';
import { inboxDraftView } from '@mailstack/core/domain/mailboxes/inbox-draft-view';

/** GET /inboxes/{id}/drafts/{draft_id}: the draft at its latest revision. */
export const handler = apiRoute({
  access: 'full',
  response: InboxDraftObject,
  params: DraftParams,
  handler: async ({ deps, auth, params }) =>
    inboxDraftView(
      await getInboxDraft(deps, await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds), params.draft_id),
    ),
});
