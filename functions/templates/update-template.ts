import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams, ObjectRef } from '@mailstack/core/schemas/common';
import { UpdateTemplateRequest } from '@mailstack/core/schemas/templates';
import { updateTemplate } from '@mailstack/core/domain/templates/update-template';

/** PATCH /templates/{id}: live at once. */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('template'),
  errors: ['conflict'],
  params: IdParams,
  body: UpdateTemplateRequest,
  handler: async ({ deps, auth, params, body }) => ({
    object: 'template',
    id: (await updateTemplate(deps, auth.team.id, params.id, body)).id,
  }),
});
