import { ObjectRef } from '@mailstack/core/schemas/common';
import { apiRoute } from '@mailstack/core/http/api-route';
import { WebhookEventParams } from '@mailstack/core/schemas/webhooks';
import { replayEvent } from '@mailstack/core/domain/webhooks/replay-event';

/** POST /webhooks/{id}/events/{event_id}/replay: sends the event again (same webhook-id), no body */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('webhook_event'),
  params: WebhookEventParams,
  handler: async ({ deps, auth, params }) => ({
    object: 'webhook_event',
    id: (await replayEvent(deps, auth.team.id, params.id, params.event_id)).eventId,
  }),
});
