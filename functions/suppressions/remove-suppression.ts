import { apiRoute } from '@mailstack/core/http/api-route';
import { Deleted, IdParams } from '@mailstack/core/schemas/common';
import { removeSuppression } from '@mailstack/core/domain/suppressions/remove-suppression';

/** DELETE /suppressions/{id or address} */
export const handler = apiRoute({
  access: 'full',
  response: Deleted('suppression'),
  params: IdParams,
  handler: async ({ deps, auth, params }) => ({
    object: 'suppression',
    id: (await removeSuppression(deps, auth.team.id, params.id)).id,
    deleted: true,
  }),
});
