import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { getEmailWithBodies } from '@mailstack/core/domain/emails/get-email';
import { emailView } from '@mailstack/core/domain/emails/email-view';
import { EmailObject } from '@mailstack/core/schemas/emails';

/** GET /emails/{id} */
export const handler = apiRoute({
  access: 'full',
  response: EmailObject,
  params: IdParams,
  handler: async ({ deps, auth, params }) => emailView(await getEmailWithBodies(deps, auth.team.id, params.id)),
});
