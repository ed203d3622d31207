import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams, ObjectRef } from '@mailstack/core/schemas/common';
import { duplicateAutomation } from '@mailstack/core/domain/automations/duplicate-automation';

/** POST /automations/{id}/duplicate: a disabled copy. */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('automation'),
  params: IdParams,
  status: 201,
  handler: async ({ deps, auth, params }) => ({
    object: 'automation',
    id: (await duplicateAutomation(deps, auth.team.id, params.id)).id,
  }),
});
