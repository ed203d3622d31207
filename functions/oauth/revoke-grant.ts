import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { revokeGrant } from '@mailstack/core/domain/oauth/grant';
import { RevokedGrant } from '@mailstack/core/schemas/oauth';

/** DELETE /oauth/grants/{id}: revokes a grant; its tokens stop on their next call (a second revocation answers the first's time and reason). */
export const handler = apiRoute({
  access: 'full',
  response: RevokedGrant,
  params: IdParams,
  handler: async ({ deps, auth, params }) => {
    const grant = await revokeGrant(deps, auth.team.id, params.id, 'revoked_by_api');
    return { object: 'oauth_grant', id: grant.id, revoked_at: grant.revokedAt!, revoked_reason: grant.revokedReason! };
  },
});
