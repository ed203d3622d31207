import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams, ObjectRef } from '@mailstack/core/schemas/common';
import { duplicateTemplate } from '@mailstack/core/domain/templates/duplicate-template';

/** POST /templates/{id}/duplicate: answers the copy's id. */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('template'),
  params: IdParams,
  handler: async ({ deps, auth, params }) => ({
    object: 'template',
    id: (await duplicateTemplate(deps, auth.team.id, params.id)).id,
  }),
});
