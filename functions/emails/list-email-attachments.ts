import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams, ListOf, listOf, Pagination } from '@mailstack/core/schemas/common';
import { ReceivedAttachmentRow } from '@mailstack/core/schemas/receiving';
import { listSentAttachments } from '@mailstack/core/domain/emails/sent-attachments';

/** GET /emails/{id}/attachments: the attachments of a sent email, each with a download link (the reference's AttachmentData). */
export const handler = apiRoute({
  access: 'full',
  response: ListOf(ReceivedAttachmentRow),
  params: IdParams,
  query: Pagination,
  handler: async ({ deps, auth, params, query }) => {
    const { items, hasMore } = await listSentAttachments(deps, auth.team.id, params.id, query);
    return listOf(items, hasMore);
  },
});
