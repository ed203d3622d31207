import * as v from 'valibot';
import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams, listOf, ListOf, Pagination } from '@mailstack/core/schemas/common';
import { AutomationRunRow, ListRunsQuery } from '@mailstack/core/schemas/automations';
import { getAutomation } from '@mailstack/core/domain/automations/automation';
import { listRuns } from '@mailstack/core/domain/automations/list-runs';
import { runRow } from '@mailstack/core/domain/automations/run';
import type { RunStatus } from '@mailstack/core/domain/automations/vocabulary';

/** GET /automations/{id}/runs (?status=running,failed) */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(AutomationRunRow),
  params: IdParams,
  query: v.intersect([Pagination, ListRunsQuery]),
  handler: async ({ deps, auth, params, query }) => {
    const a = await getAutomation(deps, auth.team.id, params.id);
    const { items, hasMore } = await listRuns(deps, auth.team.id, a.id, query, query.status as RunStatus[] | undefined);
    return listOf(items.map(runRow), hasMore);
  },
});
