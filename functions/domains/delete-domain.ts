import { apiRoute } from '@mailstack/core/http/api-route';
import { Deleted, IdParams } from '@mailstack/core/schemas/common';
import { deleteDomain } from '@mailstack/core/domain/domains/delete-domain';

/** DELETE /domains/{id} */
export const handler = apiRoute({
  access: 'full',
  response: Deleted('domain'),
  errors: ['conflict'],
  params: IdParams,
  handler: async ({ deps, auth, params }) => {
    const d = await deleteDomain(deps, auth.team.id, params.id);
    return { object: 'domain', id: d.id, deleted: true };
  },
});
