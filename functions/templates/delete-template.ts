import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams, Deleted } from '@mailstack/core/schemas/common';
import { deleteTemplate } from '@mailstack/core/domain/templates/delete-template';

/** DELETE /templates/{id} */
export const handler = apiRoute({
  access: 'full',
  response: Deleted('template'),
  params: IdParams,
  handler: async ({ deps, auth, params }) => ({
    object: 'template',
    id: (await deleteTemplate(deps, auth.team.id, params.id)).id,
    deleted: true,
  }),
});
