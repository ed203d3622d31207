import * as v from 'valibot';
import { apiRoute } from '@mailstack/core/http/api-route';
import { deleteContact } from '@mailstack/core/domain/contacts/delete-contact';
import { getSegment } from '@mailstack/core/domain/segments/segment';
import { DeletedContact } from '@mailstack/core/schemas/contacts';

/** DELETE /audiences/{id}/contacts/{id or email} (legacy alias) */
export const handler = apiRoute({
  access: 'full',
  response: DeletedContact,
  params: v.object({
    id: v.pipe(v.string(), v.uuid('must be an audience id.')),
    contact_id: v.pipe(v.string(), v.minLength(1)),
  }),
  handler: async ({ deps, auth, params }) => {
    await getSegment(deps, auth.team.id, params.id);
    const c = await deleteContact(deps, auth.team.id, params.contact_id);
    return { object: 'contact', id: c.id, contact: c.id, deleted: true };
  },
});
