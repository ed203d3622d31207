import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { DomainClaimObject } from '@mailstack/core/schemas/domains';
import { getClaim } from '@mailstack/core/domain/domains/advance-domain-claim';

/** GET /domains/{id}/claim: the latest claim of the placeholder domain a claim made. */
export const handler = apiRoute({
  access: 'full',
  response: DomainClaimObject,
  params: IdParams,
  handler: async ({ deps, auth, params }) => getClaim(deps, auth.team.id, params.id),
});
