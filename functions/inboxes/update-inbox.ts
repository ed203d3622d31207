import { apiRoute } from '@mailstack/core/http/api-route';
import { ObjectRef } from '@mailstack/core/schemas/common';
import { InboxParams, UpdateInboxRequest } from '@mailstack/core/schemas/inboxes';
import { updateInbox } from '@mailstack/core/domain/mailboxes/update-inbox';

/** PATCH /inboxes/{id}: its name and/or the display name its mail goes out with. */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('inbox'),
  params: InboxParams,
  body: UpdateInboxRequest,
  errors: ['conflict'],
  handler: async ({ deps, auth, params, body }) => {
    const m = await updateInbox(deps, auth.team.id, params.id, { name: body.name, fromName: body.from_name });
    return { object: 'inbox', id: m.id };
  },
});
