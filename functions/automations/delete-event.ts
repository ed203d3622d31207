import { apiRoute } from '@mailstack/core/http/api-route';
import { Deleted, IdParams } from '@mailstack/core/schemas/common';
import { deleteEventDefinition } from '@mailstack/core/domain/automations/delete-event-definition';

/** DELETE /events/{identifier} */
export const handler = apiRoute({
  access: 'full',
  response: Deleted('event'),
  params: IdParams,
  handler: async ({ deps, auth, params }) => ({
    object: 'event',
    id: (await deleteEventDefinition(deps, auth.team.id, params.id)).id,
    deleted: true,
  }),
});
