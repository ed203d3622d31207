import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { ShareEmailRequest, SharedEmailLink } from '@mailstack/core/schemas/emails';
import { shareEmail } from '@mailstack/core/domain/emails/share-email';

/** POST /emails/{id}/share: a link to a read-only page of a sent or received email, until it expires. */
export const handler = apiRoute({
  access: 'full',
  response: SharedEmailLink,
  errors: ['restricted_api_key'],
  params: IdParams,
  body: ShareEmailRequest,
  handler: ({ deps, auth, params, body }) => shareEmail(deps, auth, params.id, body?.expires_in),
});
