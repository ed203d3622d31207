import { apiRoute } from '@mailstack/core/http/api-route';
import { Deleted, IdParams } from '@mailstack/core/schemas/common';
import { deleteEmail } from '@mailstack/core/domain/emails/delete-email';

/** DELETE /emails/{id}: our addition over the reference API. */
export const handler = apiRoute({
  access: 'full',
  response: Deleted('email'),
  errors: ['conflict'],
  params: IdParams,
  handler: async ({ deps, auth, params }) => {
    const e = await deleteEmail(deps, auth, params.id);
    return { object: 'email', id: e.id, deleted: true };
  },
});
