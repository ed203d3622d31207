import { apiRoute } from '@mailstack/core/http/api-route';
import { BatchRemoveContactsRequest } from '@mailstack/core/schemas/contacts';
import { batchRemoveContacts } from '@mailstack/core/domain/contacts/batch-contacts';

/** POST /contacts/batch/remove (erase: true also erases the address from history) */
export const handler = apiRoute({
  access: 'full',
  body: BatchRemoveContactsRequest,
  handler: async ({ deps, auth, body }) => batchRemoveContacts(deps, auth.team.id, body),
});
