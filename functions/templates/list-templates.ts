import { apiRoute } from '@mailstack/core/http/api-route';
import { TemplateRow } from '@mailstack/core/schemas/templates';
import { Pagination, listOf, ListOf } from '@mailstack/core/schemas/common';
import { listTemplates } from '@mailstack/core/domain/templates/list-templates';
import { templateRow } from '@mailstack/core/domain/templates/template-view';

/** GET /templates: summary rows only. */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(TemplateRow),
  query: Pagination,
  handler: async ({ deps, auth, query }) => {
    const { items, hasMore } = await listTemplates(deps, auth.team.id, query);
    return listOf(items.map(templateRow), hasMore);
  },
});
