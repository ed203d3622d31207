import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams, ListOf, listOf } from '@mailstack/core/schemas/common';
import { RecipientsQuery, BroadcastRecipientRow } from '@mailstack/core/schemas/broadcasts';
import { listRecipients } from '@mailstack/core/domain/broadcasts/recipients';

/** GET /broadcasts/{id}/recipients?type=... */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(BroadcastRecipientRow),
  params: IdParams,
  query: RecipientsQuery,
  handler: async ({ deps, auth, params, query }) => {
    const { items, hasMore } = await listRecipients(deps, auth.team.id, params.id, query);
    return listOf(items, hasMore);
  },
});
