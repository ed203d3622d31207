import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams, ObjectRef } from '@mailstack/core/schemas/common';
import { verifyDomain } from '@mailstack/core/domain/domains/domain-verification';

/** POST /domains/{id}/verify */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('domain'),
  params: IdParams,
  handler: async ({ deps, auth, params }) => {
    const d = await verifyDomain(deps, auth.team.id, params.id);
    return { object: 'domain', id: d.id };
  },
});
