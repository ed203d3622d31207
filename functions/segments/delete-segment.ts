import { apiRoute } from '@mailstack/core/http/api-route';
import { Deleted, IdParams } from '@mailstack/core/schemas/common';
import { deleteSegment } from '@mailstack/core/domain/segments/segments';

/** DELETE /segments/{id} (the contacts stay) */
export const handler = apiRoute({
  access: 'full',
  response: Deleted('segment'),
  params: IdParams,
  handler: async ({ deps, auth, params }) => ({ object: 'segment', id: (await deleteSegment(deps, auth.team.id, params.id)).id, deleted: true }),
});
