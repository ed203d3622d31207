import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { RescheduledEmail, UpdateEmailRequest } from '@mailstack/core/schemas/emails';
import { rescheduleEmail } from '@mailstack/core/domain/emails/reschedule-email';

/** PATCH /emails/{id}: reschedule. */
export const handler = apiRoute({
  access: 'sending',
  response: RescheduledEmail,
  errors: ['conflict', 'restricted_api_key'],
  params: IdParams,
  body: UpdateEmailRequest,
  handler: async ({ deps, auth, params, body }) => {
    const e = await rescheduleEmail(deps, auth, params.id, body.scheduled_at);
    return { object: 'email', id: e.id, scheduled_at: e.scheduled_at };
  },
});
