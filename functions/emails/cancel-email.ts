import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { cancelEmail } from '@mailstack/core/domain/emails/cancel-email';
import { emailView } from '@mailstack/core/domain/emails/email-view';
import { EmailObject } from '@mailstack/core/schemas/emails';

/** POST /emails/{id}/cancel: answers the email, now canceled (the reference's Email, a superset of {object, id}). */
export const handler = apiRoute({
  access: 'sending',
  response: EmailObject,
  errors: ['conflict', 'restricted_api_key'],
  params: IdParams,
  handler: async ({ deps, auth, params }) => emailView(await cancelEmail(deps, auth, params.id)),
});
