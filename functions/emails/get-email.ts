import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { getEmail } from '@mailstack/core/domain/emails/get-email';
import { emailView } from '@mailstack/core/domain/emails/email-view';
import { withBodies } from '@mailstack/core/domain/emails/email-content';
import { EmailObject } from '@mailstack/core/schemas/emails';

/** GET /emails/{id} */
export const handler = apiRoute({
  access: 'full',
  response: EmailObject,
  params: IdParams,
  // Large bodies are read back from the content store.
  handler: async ({ deps, auth, params }) =>
    emailView(await withBodies(deps, await getEmail(deps, auth.team.id, params.id))),
});
