import { apiRoute } from '@mailstack/core/http/api-route';
import { CreateContactRequest } from '@mailstack/core/schemas/contacts';
import { createContact } from '@mailstack/core/domain/contacts/write-contact';

/** POST /contacts */
export const handler = apiRoute({
  access: 'full',
  body: CreateContactRequest,
  status: 201,
  handler: async ({ deps, auth, body }) => ({ object: 'contact', id: (await createContact(deps, auth.team, body)).id }),
});
