import { WebhookRow } from '@mailstack/core/schemas/webhooks';
import { apiRoute } from '@mailstack/core/http/api-route';
import { Pagination, listOf, ListOf } from '@mailstack/core/schemas/common';
import { listWebhooks } from '@mailstack/core/domain/webhooks/list-webhooks';
import { webhookRow } from '@mailstack/core/domain/webhooks/webhook';

/** GET /webhooks: rows carry no secrets */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(WebhookRow),
  query: Pagination,
  handler: async ({ deps, auth, query }) => {
    const { items, hasMore } = await listWebhooks(deps, auth.team.id, query);
    return listOf(items.map(webhookRow), hasMore);
  },
});
