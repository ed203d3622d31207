import { apiRoute } from '@mailstack/core/http/api-route';
import { idempotency } from '@mailstack/core/http/idempotency';
import { getDeps } from '@mailstack/core/runtime/deps';
import { SendEmailRequest, SentEmail } from '@mailstack/core/schemas/emails';
import { sendEmail } from '@mailstack/core/domain/emails/send-emails';

/** POST /emails */
export const handler = apiRoute({
  access: 'sending',
  response: SentEmail,
  errors: [
    'restricted_api_key',
    'team_suspended',
    'sending_paused',
    'all_recipients_suppressed',
    'daily_quota_exceeded',
    'monthly_quota_exceeded',
  ],
  body: SendEmailRequest,
  rateCount: 'beside',
  middlewares: [idempotency(getDeps)],
  handler: async ({ deps, auth, body }) => sendEmail(deps, auth, body),
});
