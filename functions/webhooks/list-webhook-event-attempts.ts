import { apiRoute } from '@mailstack/core/http/api-route';
import { Pagination, listOf, ListOf } from '@mailstack/core/schemas/common';
import { WebhookEventParams, WebhookEventAttempt } from '@mailstack/core/schemas/webhooks';
import { listAttempts } from '@mailstack/core/domain/webhooks/list-attempts';

/** GET /webhooks/{id}/events/{event_id}/attempts: status code (0 when no response), response excerpt, sent_at */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(WebhookEventAttempt),
  params: WebhookEventParams,
  query: Pagination,
  handler: async ({ deps, auth, params, query }) => {
    const { items, hasMore } = await listAttempts(deps, auth.team.id, params.id, params.event_id, query);
    return listOf(
      items.map((a) => ({ id: a.id, http_status_code: a.httpStatusCode, response: a.response, sent_at: a.sentAt })),
      hasMore,
    );
  },
});
