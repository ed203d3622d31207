import { apiRoute } from '@mailstack/core/http/api-route';
import { CreateContactRequest } from '@mailstack/core/schemas/contacts';
import { createContact } from '@mailstack/core/domain/contacts/create-contact';
import { ObjectRef } from '@mailstack/core/schemas/common';

/** POST /contacts */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('contact'),
  errors: ['conflict', 'plan_limit_reached'],
  body: CreateContactRequest,
  status: 201,
  handler: async ({ deps, auth, body }) => ({ object: 'contact', id: (await createContact(deps, auth.team, body)).id }),
});
