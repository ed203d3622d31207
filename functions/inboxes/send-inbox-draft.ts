import { apiRoute } from '@mailstack/core/http/api-route';
import { idempotency } from '@mailstack/core/http/idempotency';
import { getDeps } from '@mailstack/core/runtime/deps';
import { DraftParams, SendInboxDraftRequest, SentInboxDraft } from '@mailstack/core/schemas/inbox-drafts';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { sendInboxDraft } from '@mailstack/core/domain/mailboxes/send-inbox-draft';

/** POST /inboxes/{id}/drafts/{draft_id}/send: the mailbox send (license, allowance, `duplicate` on a repeat). */
export const handler = apiRoute({
  access: 'full',
  response: SentInboxDraft,
  params: DraftParams,
  body: SendInboxDraftRequest,
  errors: ['conflict'],
  middlewares: [idempotency(getDeps)],
  handler: async ({ deps, auth, params, body }) => {
    const m = await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds);
    const out = await sendInboxDraft(deps, auth, m, params.draft_id, body?.revision);
    return { id: out.emailId!, draft_id: out.id, revision: out.revision, duplicate: out.duplicate };
  },
});
