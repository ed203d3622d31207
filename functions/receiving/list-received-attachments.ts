import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams, listOf, ListOf, Pagination } from '@mailstack/core/schemas/common';
import { ReceivedAttachmentRow } from '@mailstack/core/schemas/receiving';
import { listReceivedAttachments } from '@mailstack/core/domain/mailboxes/list-received-attachments';

/** GET /emails/receiving/{id}/attachments: the attachments of a received email with download links. */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(ReceivedAttachmentRow),
  params: IdParams,
  query: Pagination,
  handler: async ({ deps, auth, params, query }) => {
    const { items, hasMore } = await listReceivedAttachments(deps, auth.team.id, params.id, query, auth.mailboxIds);
    return listOf(items, hasMore);
  },
});
