import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams, ObjectRef } from '@mailstack/core/schemas/common';
import { UpdateAutomationRequest } from '@mailstack/core/schemas/automations';
import { updateAutomation } from '@mailstack/core/domain/automations/update-automation';

/** PATCH /automations/{id}: a new graph affects new runs only. */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('automation'),
  params: IdParams,
  body: UpdateAutomationRequest,
  handler: async ({ deps, auth, params, body }) => ({
    object: 'automation',
    id: (await updateAutomation(deps, auth.team.id, params.id, body)).id,
  }),
});
