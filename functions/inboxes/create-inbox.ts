import { apiRoute } from '@mailstack/core/http/api-route';
import { ObjectRef } from '@mailstack/core/schemas/common';
import { CreateInboxRequest } from '@mailstack/core/schemas/inboxes';
import { createInbox } from '@mailstack/core/domain/mailboxes/create-inbox';

/** POST /inboxes: a mailbox on a verified domain of the team (`resend.inboxes.create`). */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('inbox'),
  body: CreateInboxRequest,
  status: 201,
  errors: ['conflict'],
  handler: async ({ deps, auth, body }) => {
    const m = await createInbox(deps, auth.team.id, {
      emailAddress: body.email_address,
      name: body.name,
      fromName: body.from_name,
    });
    return { object: 'inbox', id: m.id };
  },
});
