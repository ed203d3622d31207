import { apiRoute } from '@mailstack/core/http/api-route';
import { idempotency } from '@mailstack/core/http/idempotency';
import { getDeps } from '@mailstack/core/runtime/deps';
import { CreateInboxDraftRequest, SavedInboxDraft } from '@mailstack/core/schemas/inbox-drafts';
import { InboxParams } from '@mailstack/core/schemas/inboxes';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { createInboxDraft } from '@mailstack/core/domain/mailboxes/create-inbox-draft';

/** POST /inboxes/{id}/drafts: a draft through the mailbox draft use case (limits, storage, license), at revision 0. */
export const handler = apiRoute({
  access: 'full',
  response: SavedInboxDraft,
  params: InboxParams,
  body: CreateInboxDraftRequest,
  status: 201,
  errors: ['conflict'],
  middlewares: [idempotency(getDeps)],
  handler: async ({ deps, auth, params, body }) => {
    const m = await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds);
    const d = await createInboxDraft(deps, auth, m, {
      to: body.to,
      subject: body.subject,
      text: body.text,
      attachments: body.attachments?.map((a) => ({ filename: a.filename, base64: a.content })),
      threadId: body.thread_id,
      replyToEmailId: body.reply_to_email_id,
    });
    return { object: 'inbox_draft', id: d.id, revision: d.revision };
  },
});
