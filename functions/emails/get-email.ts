import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { getEmail } from '@mailstack/core/domain/emails/manage-email';
import { emailView } from '@mailstack/core/domain/emails/email-view';

/** GET /emails/{id} */
export const handler = apiRoute({
  access: 'full',
  params: IdParams,
  handler: async ({ deps, auth, params }) => emailView(await getEmail(deps, auth.team.id, params.id)),
});
