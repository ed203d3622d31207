import { apiRoute } from '@mailstack/core/http/api-route';
import { ContactParams, UpdateContactRequest } from '@mailstack/core/schemas/contacts';
import { updateContact } from '@mailstack/core/domain/contacts/update-contact';
import { ObjectRef } from '@mailstack/core/schemas/common';

/** PATCH /contacts/{id or email} */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('contact'),
  params: ContactParams,
  body: UpdateContactRequest,
  handler: async ({ deps, auth, params, body }) => ({
    object: 'contact',
    id: (await updateContact(deps, auth.team.id, params.id, body, 'api')).id,
  }),
});
