import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams, ObjectRef } from '@mailstack/core/schemas/common';
import { UpdateDomainRequest } from '@mailstack/core/schemas/domains';
import { updateDomain } from '@mailstack/core/domain/domains/update-domain';

/** PATCH /domains/{id} */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('domain'),
  params: IdParams,
  body: UpdateDomainRequest,
  errors: ['conflict'],
  handler: async ({ deps, auth, params, body }) => {
    const d = await updateDomain(deps, auth.team.id, params.id, body ?? {});
    return { object: 'domain', id: d.id };
  },
});
