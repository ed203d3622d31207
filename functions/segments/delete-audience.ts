import { apiRoute } from '@mailstack/core/http/api-route';
import { Deleted, IdParams } from '@mailstack/core/schemas/common';
import { deleteSegment } from '@mailstack/core/domain/segments/segments';

/** DELETE /audiences/{id} (the contacts stay) */
export const handler = apiRoute({
  access: 'full',
  response: Deleted('audience'),
  params: IdParams,
  handler: async ({ deps, auth, params }) => ({ object: 'audience', id: (await deleteSegment(deps, auth.team.id, params.id)).id, deleted: true }),
});
