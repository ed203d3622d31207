import { apiRoute } from '@mailstack/core/http/api-route';
import { CreateContactPropertyRequest } from '@mailstack/core/schemas/contacts';
import { createContactProperty } from '@mailstack/core/domain/contacts/create-contact-property';
import { ObjectRef } from '@mailstack/core/schemas/common';

/** POST /contact-properties */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('contact_property'),
  errors: ['conflict'],
  body: CreateContactPropertyRequest,
  status: 201,
  handler: async ({ deps, auth, body }) => ({
    object: 'contact_property',
    id: (await createContactProperty(deps, auth.team.id, body)).id,
  }),
});
