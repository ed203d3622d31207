import * as v from 'valibot';
import { apiRoute } from '@mailstack/core/http/api-route';
import { AutomationRunObject } from '@mailstack/core/schemas/automations';
import { getAutomation } from '@mailstack/core/domain/automations/automation';
import { getRun, runView, stepsOf } from '@mailstack/core/domain/automations/run';

/** GET /automations/{id}/runs/{run_id}: with each step's status, output and error. */
export const handler = apiRoute({
  access: 'full',
  response: AutomationRunObject,
  params: v.object({ id: v.pipe(v.string(), v.minLength(1)), run_id: v.pipe(v.string(), v.minLength(1)) }),
  handler: async ({ deps, auth, params }) => {
    const a = await getAutomation(deps, auth.team.id, params.id);
    const run = await getRun(deps, auth.team.id, a.id, params.run_id);
    return runView(run, await stepsOf(deps, auth.team.id, run.id));
  },
});
