import { apiRoute } from '@mailstack/core/http/api-route';
import { Deleted, IdParams } from '@mailstack/core/schemas/common';
import { deleteAutomation } from '@mailstack/core/domain/automations/delete-automation';

/** DELETE /automations/{id}: its running runs are cancelled. */
export const handler = apiRoute({
  access: 'full',
  response: Deleted('automation'),
  params: IdParams,
  handler: async ({ deps, auth, params }) => ({
    object: 'automation',
    id: (await deleteAutomation(deps, auth.team.id, params.id)).id,
    deleted: true,
  }),
});
