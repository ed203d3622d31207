import { apiRoute } from '@mailstack/core/http/api-route';
import { ObjectRef } from '@mailstack/core/schemas/common';
import { LabelParams, UpdateInboxLabelRequest } from '@mailstack/core/schemas/inbox-labels';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { updateInboxLabel } from '@mailstack/core/domain/mailboxes/update-inbox-label';

/** PATCH /inboxes/{id}/labels/{label_id}: its name and/or color. */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('inbox_label'),
  params: LabelParams,
  body: UpdateInboxLabelRequest,
  errors: ['conflict'],
  handler: async ({ deps, auth, params, body }) => {
    const m = await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds);
    return { object: 'inbox_label', id: (await updateInboxLabel(deps, m, params.label_id, body)).id };
  },
});
