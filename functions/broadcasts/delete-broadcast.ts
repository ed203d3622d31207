import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams, Deleted } from '@mailstack/core/schemas/common';
import { deleteBroadcast } from '@mailstack/core/domain/broadcasts/delete-broadcast';

/** DELETE /broadcasts/{id}: drafts only. */
export const handler = apiRoute({
  access: 'full',
  response: Deleted('broadcast'),
  errors: ['invalid_parameter'],
  params: IdParams,
  handler: async ({ deps, auth, params }) => {
    await deleteBroadcast(deps, auth.team.id, params.id);
    return { object: 'broadcast', id: params.id, deleted: true };
  },
});
