import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams, ObjectRef } from '@mailstack/core/schemas/common';
import { UpdateEventRequest } from '@mailstack/core/schemas/custom-events';
import { updateEventDefinition } from '@mailstack/core/domain/automations/update-event-definition';

/** PATCH /events/{identifier}: replaces the payload schema (null clears it). */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('event'),
  params: IdParams,
  body: UpdateEventRequest,
  handler: async ({ deps, auth, params, body }) => ({
    object: 'event',
    id: (await updateEventDefinition(deps, auth.team.id, params.id, body.schema ?? null)).id,
  }),
});
