import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { EventObject } from '@mailstack/core/schemas/custom-events';
import { eventDefinitionRow, getEventDefinition } from '@mailstack/core/domain/automations/event-definition';

/** GET /events/{identifier}: by id or name. */
export const handler = apiRoute({
  access: 'full',
  response: EventObject,
  params: IdParams,
  handler: async ({ deps, auth, params }) => ({
    object: 'event',
    ...eventDefinitionRow(await getEventDefinition(deps, auth.team.id, params.id)),
  }),
});
