import { apiRoute } from '@mailstack/core/http/api-route';
import { TemplateObject } from '@mailstack/core/schemas/templates';
import { IdParams } from '@mailstack/core/schemas/common';
import { getTemplate } from '@mailstack/core/domain/templates/get-template';
import { templateView } from '@mailstack/core/domain/templates/template-view';

/** GET /templates/{id}: by id or alias. */
export const handler = apiRoute({
  access: 'full',
  response: TemplateObject,
  params: IdParams,
  handler: async ({ deps, auth, params }) => templateView(await getTemplate(deps, auth.team.id, params.id)),
});
