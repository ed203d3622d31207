import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { getDomain } from '@mailstack/core/domain/domains/domain-verification';
import { domainView } from '@mailstack/core/domain/domains/domain';
import { DomainObject } from '@mailstack/core/schemas/domains';

/** GET /domains/{id} */
export const handler = apiRoute({
  access: 'full',
  response: DomainObject,
  params: IdParams,
  handler: async ({ deps, auth, params }) => domainView(await getDomain(deps, auth.team.id, params.id), deps.config),
});
