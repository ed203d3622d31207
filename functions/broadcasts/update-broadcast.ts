import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams, ObjectRef } from '@mailstack/core/schemas/common';
import { UpdateBroadcastRequest } from '@mailstack/core/schemas/broadcasts';
import { updateBroadcast } from '@mailstack/core/domain/broadcasts/update-broadcast';

/** PATCH /broadcasts/{id}: drafts only (a sent one is 400 invalid_parameter). */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('broadcast'),
  errors: ['invalid_parameter'],
  params: IdParams,
  body: UpdateBroadcastRequest,
  handler: async ({ deps, auth, params, body }) => ({
    object: 'broadcast',
    id: (await updateBroadcast(deps, auth.team.id, params.id, body)).id,
  }),
});
