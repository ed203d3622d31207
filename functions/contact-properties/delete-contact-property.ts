import { apiRoute } from '@mailstack/core/http/api-route';
import { Deleted, IdParams } from '@mailstack/core/schemas/common';
import { deleteContactProperty } from '@mailstack/core/domain/contacts/delete-contact-property';

/** DELETE /contact-properties/{id} */
export const handler = apiRoute({
  access: 'full',
  response: Deleted('contact_property'),
  params: IdParams,
  handler: async ({ deps, auth, params }) => ({
    object: 'contact_property',
    id: (await deleteContactProperty(deps, auth.team.id, params.id)).id,
    deleted: true,
  }),
});
