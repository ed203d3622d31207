import { apiRoute } from '@mailstack/core/http/api-route';
import { idempotency } from '@mailstack/core/http/idempotency';
import { getDeps } from '@mailstack/core/runtime/deps';
import { SendEventRequest, SentEvent } from '@mailstack/core/schemas/custom-events';
import { acceptEvent } from '@mailstack/core/domain/automations/send-event';

/** POST /events/send: accepts an event for a contact (202); the automations it starts run in the background. */
export const handler = apiRoute({
  access: 'full',
  response: SentEvent,
  body: SendEventRequest,
  status: 202,
  errors: ['not_found'],
  // A client retrying with the same Idempotency-Key gets the first answer and sends no second event (no second run).
  middlewares: [idempotency(getDeps)],
  handler: async ({ deps, auth, body }) => ({
    object: 'event',
    event: (await acceptEvent(deps, auth.team.id, body)).name,
  }),
});
