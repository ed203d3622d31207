import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams, Deleted } from '@mailstack/core/schemas/common';
import { deleteWebhook } from '@mailstack/core/domain/webhooks/delete-webhook';

/** DELETE /webhooks/{id} */
export const handler = apiRoute({
  access: 'full',
  response: Deleted('webhook'),
  params: IdParams,
  handler: async ({ deps, auth, params }) => {
    await deleteWebhook(deps, auth.team.id, params.id);
    return { object: 'webhook', id: params.id, deleted: true };
  },
});
