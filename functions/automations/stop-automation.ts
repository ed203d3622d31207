import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { StoppedAutomation } from '@mailstack/core/schemas/automations';
import { stopAutomation } from '@mailstack/core/domain/automations/stop-automation';

/** POST /automations/{id}/stop: disabled, its running runs cancelled. */
export const handler = apiRoute({
  access: 'full',
  response: StoppedAutomation,
  params: IdParams,
  handler: async ({ deps, auth, params }) => ({
    object: 'automation',
    id: (await stopAutomation(deps, auth.team.id, params.id)).id,
    status: 'disabled',
  }),
});
