import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { RotateWebhookRequest, RotatedWebhook } from '@mailstack/core/schemas/webhooks';
import { rotateWebhookSecret } from '@mailstack/core/domain/webhooks/rotate-webhook-secret';
import { webhookView } from '@mailstack/core/domain/webhooks/webhook';

/**
 * POST /webhooks/{id}/rotate (spec: optional signing_secret and overlap_hours) and
 * POST /webhooks/{id}/signing-secret/rotate (the SDK's, no body): the old secret keeps signing for the overlap.
 */
export const handler = apiRoute({
  access: 'full',
  response: RotatedWebhook,
  params: IdParams,
  body: RotateWebhookRequest,
  handler: async ({ deps, auth, params, body }) => {
    const { object, id, signing_secret, previous_secret_expires_at } = webhookView(
      await rotateWebhookSecret(deps, auth.team.id, params.id, body),
      deps.clock.now(),
    );
    return { object, id, signing_secret, previous_secret_expires_at };
  },
});
