import { apiRoute } from '@mailstack/core/http/api-route';
import { DraftParams, SavedInboxDraft, UpdateInboxDraftRequest } from '@mailstack/core/schemas/inbox-drafts';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { updateInboxDraft } from '@mailstack/core/domain/mailboxes/update-inbox-draft';

/** PATCH /inboxes/{id}/drafts/{draft_id}: a new revision (409 when `revision` is not the latest). */
export const handler = apiRoute({
  access: 'full',
  response: SavedInboxDraft,
  params: DraftParams,
  body: UpdateInboxDraftRequest,
  errors: ['conflict'],
  handler: async ({ deps, auth, params, body }) => {
    const m = await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds);
    const d = await updateInboxDraft(deps, auth, m, params.draft_id, {
      to: body.to,
      subject: body.subject,
      text: body.text,
      attachments:
        body.attachments === undefined
          ? undefined
          : (body.attachments ?? []).map((a) => ({ filename: a.filename, base64: a.content })),
      revision: body.revision,
    });
    return { object: 'inbox_draft', id: d.id, revision: d.revision };
  },
});
