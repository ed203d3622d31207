import * as v from 'valibot';
import { apiRoute } from '@mailstack/core/http/api-route';
import { loadContact } from '@mailstack/core/domain/contacts/contact';
import { contactView } from '@mailstack/core/domain/contacts/contact-views';
import { getSegment } from '@mailstack/core/domain/segments/segment';
import { ContactObject } from '@mailstack/core/schemas/contacts';

/** GET /audiences/{id}/contacts/{id or email} (legacy alias) */
export const handler = apiRoute({
  access: 'full',
  response: ContactObject,
  params: v.object({
    id: v.pipe(v.string(), v.uuid('must be an audience id.')),
    contact_id: v.pipe(v.string(), v.minLength(1)),
  }),
  handler: async ({ deps, auth, params }) => {
    await getSegment(deps, auth.team.id, params.id);
    return contactView(deps, await loadContact(deps, auth.team.id, params.contact_id));
  },
});
