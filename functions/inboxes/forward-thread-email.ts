import { apiRoute } from '@mailstack/core/http/api-route';
import { idempotency } from '@mailstack/core/http/idempotency';
import { getDeps } from '@mailstack/core/runtime/deps';
import { ForwardInboxEmailRequest, SentInboxEmail } from '@mailstack/core/schemas/inbox-drafts';
import { ThreadEmailParams } from '@mailstack/core/schemas/inboxes';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { forwardEmail } from '@mailstack/core/domain/mailboxes/inbox-replies';

/** POST /inboxes/{id}/threads/{thread_id}/emails/{email_id}/forward: a draft of the thread, sent at once (In-Reply-To and References kept). */
export const handler = apiRoute({
  access: 'full',
  response: SentInboxEmail,
  params: ThreadEmailParams,
  body: ForwardInboxEmailRequest,
  errors: ['conflict'],
  middlewares: [idempotency(getDeps)],
  handler: async ({ deps, auth, params, body }) => {
    const m = await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds);
    return forwardEmail(deps, auth, m, params.thread_id, params.email_id, {
      to: body.to,
      text: body.text,
      subject: body.subject,
      attachments: (body.attachments ?? []).map((a) => ({ filename: a.filename, base64: a.content })),
    });
  },
});
