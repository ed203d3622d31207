import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { SendBroadcastRequest, SentBroadcast } from '@mailstack/core/schemas/broadcasts';
import { sendBroadcast } from '@mailstack/core/domain/broadcasts/send-broadcast';

/** POST /broadcasts/{id}/send: answers finishes_at, estimated and any pacing warning. */
export const handler = apiRoute({
  access: 'full',
  response: SentBroadcast,
  errors: ['invalid_parameter', 'team_suspended', 'sending_paused', 'broadcasts_paused', 'broadcast_too_large'],
  params: IdParams,
  body: SendBroadcastRequest,
  handler: async ({ deps, auth, params, body }) => ({
    object: 'broadcast',
    ...(await sendBroadcast(deps, auth.team, params.id, body?.scheduled_at)),
  }),
});
