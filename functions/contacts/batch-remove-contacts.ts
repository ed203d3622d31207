import { apiRoute } from '@mailstack/core/http/api-route';
import { BatchRemoveContactsRequest, BatchRemovedContacts } from '@mailstack/core/schemas/contacts';
import { batchRemoveContacts } from '@mailstack/core/domain/contacts/batch-remove-contacts';

/** POST /contacts/batch/remove (erase: true also erases the address from history) */
export const handler = apiRoute({
  access: 'full',
  response: BatchRemovedContacts,
  body: BatchRemoveContactsRequest,
  handler: async ({ deps, auth, body }) => batchRemoveContacts(deps, auth.team.id, body),
});
