import { apiRoute } from '@mailstack/core/http/api-route';
import { WebhookEventParams, WebhookEventObject } from '@mailstack/core/schemas/webhooks';
import { deliveryView } from '@mailstack/core/domain/webhooks/delivery';
import { getDelivery } from '@mailstack/core/domain/webhooks/get-delivery';

/** GET /webhooks/{id}/events/{event_id}: status, next_attempt_at and the payload */
export const handler = apiRoute({
  access: 'full',
  response: WebhookEventObject,
  params: WebhookEventParams,
  handler: async ({ deps, auth, params }) =>
    deliveryView(await getDelivery(deps, auth.team.id, params.id, params.event_id)),
});
