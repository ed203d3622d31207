import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams, ObjectRef } from '@mailstack/core/schemas/common';
import { UpdateWebhookRequest } from '@mailstack/core/schemas/webhooks';
import { updateWebhook } from '@mailstack/core/domain/webhooks/update-webhook';

/** PATCH /webhooks/{id}: endpoint, events, status (re-enabling brings a disabled endpoint back) */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('webhook'),
  params: IdParams,
  body: UpdateWebhookRequest,
  handler: async ({ deps, auth, params, body }) => ({
    object: 'webhook',
    id: (await updateWebhook(deps, auth.team.id, params.id, body)).id,
  }),
});
