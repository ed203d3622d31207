import { apiRoute } from '@mailstack/core/http/api-route';
import { BatchGetContactsRequest, BatchGotContacts } from '@mailstack/core/schemas/contacts';
import { batchGetContacts } from '@mailstack/core/domain/contacts/batch-get-contacts';

/** POST /contacts/batch/get */
export const handler = apiRoute({
  access: 'full',
  response: BatchGotContacts,
  body: BatchGetContactsRequest,
  handler: async ({ deps, auth, body }) => batchGetContacts(deps, auth.team.id, body.contacts, body.include ?? []),
});
