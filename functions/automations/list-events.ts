import { apiRoute } from '@mailstack/core/http/api-route';
import { listOf, ListOf, Pagination } from '@mailstack/core/schemas/common';
import { EventRow } from '@mailstack/core/schemas/custom-events';
import { eventDefinitionRow } from '@mailstack/core/domain/automations/event-definition';
import { listEventDefinitions } from '@mailstack/core/domain/automations/list-event-definitions';

/** GET /events: the team's event definitions, newest first. */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(EventRow),
  query: Pagination,
  handler: async ({ deps, auth, query }) => {
    const { items, hasMore } = await listEventDefinitions(deps, auth.team.id, query);
    return listOf(items.map(eventDefinitionRow), hasMore);
  },
});
