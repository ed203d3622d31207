import { apiRoute } from '@mailstack/core/http/api-route';
import { ObjectRef } from '@mailstack/core/schemas/common';
import { CreateEventRequest } from '@mailstack/core/schemas/custom-events';
import { createEventDefinition } from '@mailstack/core/domain/automations/create-event-definition';

/** POST /events: defines a custom event (409 when the name is taken). */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('event'),
  body: CreateEventRequest,
  status: 201,
  errors: ['conflict'],
  handler: async ({ deps, auth, body }) => ({
    object: 'event',
    id: (await createEventDefinition(deps, auth.team.id, body)).id,
  }),
});
