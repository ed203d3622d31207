import { WebhookEventRow } from '@mailstack/core/schemas/webhooks';
import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams, Pagination, listOf, ListOf } from '@mailstack/core/schemas/common';
import { deliveryRow } from '@mailstack/core/domain/webhooks/delivery';
import { listDeliveries } from '@mailstack/core/domain/webhooks/list-deliveries';

/** GET /webhooks/{id}/events: the delivery log, newest event first */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(WebhookEventRow),
  params: IdParams,
  query: Pagination,
  handler: async ({ deps, auth, params, query }) => {
    const { items, hasMore } = await listDeliveries(deps, auth.team.id, params.id, query);
    return listOf(items.map(deliveryRow), hasMore);
  },
});
