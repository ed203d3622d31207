import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams, ObjectRef } from '@mailstack/core/schemas/common';
import { duplicateBroadcast } from '@mailstack/core/domain/broadcasts/duplicate-broadcast';

/** POST /broadcasts/{id}/duplicate: a new draft with the same content. */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('broadcast'),
  params: IdParams,
  handler: async ({ deps, auth, params }) => ({
    object: 'broadcast',
    id: (await duplicateBroadcast(deps, auth.team.id, params.id)).id,
  }),
});
