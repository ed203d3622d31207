import { apiRoute } from '@mailstack/core/http/api-route';
import { IdParams } from '@mailstack/core/schemas/common';
import { contactPropertyView, getContactProperty } from '@mailstack/core/domain/contacts/contact-property';
import { ContactPropertyObject } from '@mailstack/core/schemas/contacts';

/** GET /contact-properties/{id} */
export const handler = apiRoute({
  access: 'full',
  response: ContactPropertyObject,
  params: IdParams,
  handler: async ({ deps, auth, params }) =>
    contactPropertyView(await getContactProperty(deps, auth.team.id, params.id)),
});
