import { apiRoute } from '@mailstack/core/http/api-route';
import { ListOf, Pagination, listOf } from '@mailstack/core/schemas/common';
import { LogRow } from '@mailstack/core/schemas/logs';
import { listRequestLogs } from '@mailstack/core/domain/logs/list-request-logs';
import { logRow } from '@mailstack/core/domain/logs/request-log';

/** GET /logs: the team's API requests, newest first */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(LogRow),
  query: Pagination,
  handler: async ({ deps, auth, query }) => {
    const { items, hasMore } = await listRequestLogs(deps, auth.team.id, query);
    return listOf(items.map(logRow), hasMore);
  },
});
