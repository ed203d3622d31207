import { apiRoute } from '@mailstack/core/http/api-route';
import { CreateWebhookRequest, CreatedWebhook } from '@mailstack/core/schemas/webhooks';
import { createWebhook } from '@mailstack/core/domain/webhooks/create-webhook';

/** POST /webhooks: 201 {object, id, signing_secret} */
export const handler = apiRoute({
  access: 'full',
  response: CreatedWebhook,
  body: CreateWebhookRequest,
  status: 201,
  handler: async ({ deps, auth, body }) => {
    const w = await createWebhook(deps, auth.team.id, body);
    return { object: 'webhook', id: w.id, signing_secret: w.secret };
  },
});
