import { apiRoute } from '@mailstack/core/http/api-route';
import { ObjectRef } from '@mailstack/core/schemas/common';
import { CreateInboxLabelRequest } from '@mailstack/core/schemas/inbox-labels';
import { InboxParams } from '@mailstack/core/schemas/inboxes';
import { resolveInbox } from '@mailstack/core/domain/mailboxes/inbox';
import { createInboxLabel } from '@mailstack/core/domain/mailboxes/create-inbox-label';

/** POST /inboxes/{id}/labels: a label, its name unique in the inbox. */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('inbox_label'),
  params: InboxParams,
  body: CreateInboxLabelRequest,
  status: 201,
  errors: ['conflict'],
  handler: async ({ deps, auth, params, body }) => {
    const m = await resolveInbox(deps, auth.team.id, params.id, auth.mailboxIds);
    return { object: 'inbox_label', id: (await createInboxLabel(deps, m, body)).id };
  },
});
