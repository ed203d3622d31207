import { apiRoute } from '@mailstack/core/http/api-route';
import { ContactParams, DeletedContact } from '@mailstack/core/schemas/contacts';
import { deleteContact } from '@mailstack/core/domain/contacts/delete-contact';

/** DELETE /contacts/{id or email}: both the SDK's `contact` and the reference's `id`. */
export const handler = apiRoute({
  access: 'full',
  response: DeletedContact,
  params: ContactParams,
  handler: async ({ deps, auth, params }) => {
    const c = await deleteContact(deps, auth.team.id, params.id);
    return { object: 'contact', id: c.id, contact: c.id, deleted: true };
  },
});
