import { apiRoute } from '@mailstack/core/http/api-route';
import { ObjectRef } from '@mailstack/core/schemas/common';
import { CreateAutomationRequest } from '@mailstack/core/schemas/automations';
import { createAutomation } from '@mailstack/core/domain/automations/create-automation';

/** POST /automations: the graph is checked whole on save (422 naming the step). */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('automation'),
  body: CreateAutomationRequest,
  status: 201,
  handler: async ({ deps, auth, body }) => ({
    object: 'automation',
    id: (await createAutomation(deps, auth.team.id, body)).id,
  }),
});
