import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { cancelEmail } from '@mailstack/core/domain/emails/cancel-email';
import { emailView } from '@mailstack/core/domain/emails/email-view';
import { withBodies } from '@mailstack/core/domain/emails/email-content';
import { bodyWithinAnswer } from '@mailstack/core/domain/answer-bodies';
import { EmailObject } from '@mailstack/core/schemas/emails';

/** POST /emails/{id}/cancel: answers the email, now canceled (the reference's Email, a superset of {object, id}). */
export const handler = apiRoute({
  access: 'sending',
  response: EmailObject,
  errors: ['conflict', 'restricted_api_key'],
  params: IdParams,
  // The email as GET /emails/{id} shows it, bodies included.
  handler: async ({ deps, auth, params }) =>
    emailView(bodyWithinAnswer(await withBodies(deps, await cancelEmail(deps, auth, params.id)))),
});
