import { apiRoute } from '@mailstack/core/http/api-route';
import { idempotency } from '@mailstack/core/http/idempotency';
import { getDeps } from '@mailstack/core/runtime/deps';
import { ReplyInboxEmailRequest, SentInboxEmail } from '@mailstack/core/schemas/inbox-drafts';
import { ThreadEmailParams } from '@mailstack/core/schemas/inboxes';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { replyToEmail } from '@mailstack/core/domain/mailboxes/inbox-replies';

/** POST /inboxes/{id}/threads/{thread_id}/emails/{email_id}/reply: a draft of the thread, sent at once (In-Reply-To and References kept). */
export const handler = apiRoute({
  access: 'full',
  response: SentInboxEmail,
  params: ThreadEmailParams,
  body: ReplyInboxEmailRequest,
  errors: ['conflict'],
  middlewares: [idempotency(getDeps)],
  handler: async ({ deps, auth, params, body }) => {
    const m = await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds);
    return replyToEmail(deps, auth, m, params.thread_id, params.email_id, {
      text: body.text,
      subject: body.subject,
      replyAll: body.reply_all,
      attachments: (body.attachments ?? []).map((a) => ({ filename: a.filename, base64: a.content })),
    });
  },
});
