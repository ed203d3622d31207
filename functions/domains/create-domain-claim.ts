import { apiRoute, JsonWithStatus } from '@mailstack/core/http/api-route';
import { CreateDomainClaimRequest, DomainClaimObject } from '@mailstack/core/schemas/domains';
import { createClaim } from '@mailstack/core/domain/domains/create-domain-claim';

/** POST /domains/claim: 201 for a new claim, 200 for an identical pending one (returned unchanged). */
export const handler = apiRoute({
  access: 'full',
  response: DomainClaimObject,
  errors: ['conflict', 'plan_limit_reached'],
  body: CreateDomainClaimRequest,
  status: 201,
  alsoStatus: [200],
  handler: async ({ deps, auth, body }) => {
    const { claim, created } = await createClaim(deps, auth.team, body);
    return created ? claim : new JsonWithStatus(200, claim);
  },
});
