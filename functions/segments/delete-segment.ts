import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { DeletedSegment } from '@mailstack/core/schemas/contacts';
import { deleteSegment } from '@mailstack/core/domain/segments/delete-segment';
import { objectOf } from './object-name.ts';

/** DELETE /segments/{id}, and DELETE /audiences/{id} (the contacts stay) */
export const handler = apiRoute({
  access: 'full',
  response: DeletedSegment,
  params: IdParams,
  handler: async ({ deps, auth, params, event }) => ({
    object: objectOf(event),
    id: (await deleteSegment(deps, auth.team.id, params.id)).id,
    deleted: true,
  }),
});
