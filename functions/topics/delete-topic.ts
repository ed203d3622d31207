import { apiRoute } from '@mailstack/core/http/api-route';
import { Deleted, IdParams } from '@mailstack/core/schemas/common';
import { deleteTopic } from '@mailstack/core/domain/topics/delete-topic';

/** DELETE /topics/{id} */
export const handler = apiRoute({
  access: 'full',
  response: Deleted('topic'),
  params: IdParams,
  handler: async ({ deps, auth, params }) => ({
    object: 'topic',
    id: (await deleteTopic(deps, auth.team.id, params.id)).id,
    deleted: true,
  }),
});
