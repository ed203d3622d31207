import { WebhookObject } from '@mailstack/core/schemas/webhooks';
import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { getWebhook, webhookView } from '@mailstack/core/domain/webhooks/webhook';

/** GET /webhooks/{id}: with signing_secret and previous_secret_expires_at */
export const handler = apiRoute({
  access: 'full',
  response: WebhookObject,
  params: IdParams,
  handler: async ({ deps, auth, params }) =>
    webhookView(await getWebhook(deps, auth.team.id, params.id), deps.clock.now()),
});
