import * as v from 'valibot';
import { apiRoute } from '@mailstack/core/http/api-route';
import { listOf, ListOf, Pagination } from '@mailstack/core/schemas/common';
import { AutomationRow, ListAutomationsQuery } from '@mailstack/core/schemas/automations';
import { automationRow } from '@mailstack/core/domain/automations/automation';
import { listAutomations } from '@mailstack/core/domain/automations/list-automations';

/** GET /automations (?status=) */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(AutomationRow),
  query: v.intersect([Pagination, ListAutomationsQuery]),
  handler: async ({ deps, auth, query }) => {
    const { items, hasMore } = await listAutomations(deps, auth.team.id, query, query.status);
    return listOf(items.map(automationRow), hasMore);
  },
});
