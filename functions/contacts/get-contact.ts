import { apiRoute } from '@mailstack/core/http/api-route';
import { ContactObject, ContactParams } from '@mailstack/core/schemas/contacts';
import { loadContact } from '@mailstack/core/domain/contacts/contact';
import { contactView } from '@mailstack/core/domain/contacts/contact-views';

/** GET /contacts/{id or email} */
export const handler = apiRoute({
  access: 'full',
  response: ContactObject,
  params: ContactParams,
  handler: async ({ deps, auth, params }) => contactView(deps, await loadContact(deps, auth.team.id, params.id)),
});
