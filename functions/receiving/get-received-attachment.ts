import * as v from 'valibot';
import { apiRoute } from '@mailstack/core/http/api-route';
import { ReceivedAttachmentObject } from '@mailstack/core/schemas/receiving';
import { getReceivedAttachment } from '@mailstack/core/domain/mailboxes/get-received-attachment';

/** GET /emails/receiving/{id}/attachments/{attachment_id}: one attachment with its download link. */
export const handler = apiRoute({
  access: 'full',
  response: ReceivedAttachmentObject,
  params: v.object({
    id: v.pipe(v.string(), v.minLength(1, 'is required.')),
    attachment_id: v.pipe(v.string(), v.minLength(1, 'is required.')),
  }),
  handler: async ({ deps, auth, params }) =>
    getReceivedAttachment(deps, auth.team.id, params.id, params.attachment_id, auth.mailboxIds),
});
