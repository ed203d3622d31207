import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams, ObjectRef } from '@mailstack/core/schemas/common';
import { UpdateSegmentRequest } from '@mailstack/core/schemas/contacts';
import { renameSegment } from '@mailstack/core/domain/segments/rename-segment';

/** PATCH /segments/{id} */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('segment'),
  params: IdParams,
  body: UpdateSegmentRequest,
  handler: async ({ deps, auth, params, body }) => ({
    object: 'segment',
    id: (await renameSegment(deps, auth.team.id, params.id, body.name)).id,
  }),
});
