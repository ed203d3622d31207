import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { AutomationObject } from '@mailstack/core/schemas/automations';
import { automationView, getAutomation, graphOf } from '@mailstack/core/domain/automations/automation';

/** GET /automations/{id}: with the graph new runs start on. */
export const handler = apiRoute({
  access: 'full',
  response: AutomationObject,
  params: IdParams,
  handler: async ({ deps, auth, params }) => {
    const a = await getAutomation(deps, auth.team.id, params.id);
    return automationView(a, await graphOf(deps, auth.team.id, a.id, a.versionId));
  },
});
