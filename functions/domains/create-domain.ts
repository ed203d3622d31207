import { apiRoute } from '@mailstack/core/http/api-route';
import { CreatedDomain, CreateDomainRequest } from '@mailstack/core/schemas/domains';
import { createDomain } from '@mailstack/core/domain/domains/create-domain';
import { domainView } from '@mailstack/core/domain/domains/domain';

/** POST /domains */
export const handler = apiRoute({
  access: 'full',
  response: CreatedDomain,
  errors: ['conflict', 'plan_limit_reached'],
  body: CreateDomainRequest,
  status: 201,
  handler: async ({ deps, auth, body }) => {
    const { object: _object, ...view } = domainView(await createDomain(deps, auth.team, body), deps.config);
    return view;
  },
});
