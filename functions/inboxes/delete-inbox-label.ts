import { apiRoute } from '@mailstack/core/http/api-route';
import { Deleted } from '@mailstack/core/schemas/common';
import { LabelParams } from '@mailstack/core/schemas/inbox-labels';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { removeInboxLabel } from '@mailstack/core/domain/mailboxes/remove-inbox-label';

/** DELETE /inboxes/{id}/labels/{label_id}: the label goes from the inbox and from every thread at once. */
export const handler = apiRoute({
  access: 'full',
  response: Deleted('inbox_label'),
  params: LabelParams,
  handler: async ({ deps, auth, params }) => {
    await removeInboxLabel(deps, await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds), params.label_id);
    return { object: 'inbox_label', id: params.label_id, deleted: true };
  },
});
