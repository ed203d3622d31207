import { apiRoute } from '@mailstack/core/http/api-route';
import { ObjectRef } from '@mailstack/core/schemas/common';
import { CreateTemplateRequest } from '@mailstack/core/schemas/templates';
import { createTemplate } from '@mailstack/core/domain/templates/create-template';

/** POST /templates */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('template'),
  errors: ['conflict'],
  body: CreateTemplateRequest,
  status: 201,
  handler: async ({ deps, auth, body }) => ({
    object: 'template',
    id: (await createTemplate(deps, auth.team.id, body)).id,
  }),
});
