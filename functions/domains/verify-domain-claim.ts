import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { DomainClaimObject } from '@mailstack/core/schemas/domains';
import { verifyClaim } from '@mailstack/core/domain/domains/advance-domain-claim';

/** POST /domains/{id}/claim/verify: looks up the claim's TXT record; a proven claim moves the domain once nothing blocks it. */
export const handler = apiRoute({
  access: 'full',
  response: DomainClaimObject,
  params: IdParams,
  handler: async ({ deps, auth, params }) => verifyClaim(deps, auth.team.id, params.id),
});
