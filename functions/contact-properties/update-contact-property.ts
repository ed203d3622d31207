import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams, ObjectRef } from '@mailstack/core/schemas/common';
import { UpdateContactPropertyRequest } from '@mailstack/core/schemas/contacts';
import { updateContactProperty } from '@mailstack/core/domain/contacts/update-contact-property';

/** PATCH /contact-properties/{id}: the fallback value only. */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('contact_property'),
  params: IdParams,
  body: UpdateContactPropertyRequest,
  handler: async ({ deps, auth, params, body }) => ({
    object: 'contact_property',
    id: (await updateContactProperty(deps, auth.team.id, params.id, body.fallback_value)).id,
  }),
});
