import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams, ObjectRef } from '@mailstack/core/schemas/common';
import { publishTemplate } from '@mailstack/core/domain/templates/publish-template';

/** POST /templates/{id}/publish */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('template'),
  params: IdParams,
  handler: async ({ deps, auth, params }) => ({
    object: 'template',
    id: (await publishTemplate(deps, auth.team.id, params.id)).id,
  }),
});
