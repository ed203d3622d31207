import * as v from 'valibot';
import { apiRoute } from '@mailstack/core/http/api-route';
import { UpdateContactRequest } from '@mailstack/core/schemas/contacts';
import { updateContact } from '@mailstack/core/domain/contacts/update-contact';
import { getSegment } from '@mailstack/core/domain/segments/segment';
import { ObjectRef } from '@mailstack/core/schemas/common';

/** PATCH /audiences/{id}/contacts/{id or email} (legacy alias) */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('contact'),
  params: v.object({
    id: v.pipe(v.string(), v.uuid('must be an audience id.')),
    contact_id: v.pipe(v.string(), v.minLength(1)),
  }),
  body: UpdateContactRequest,
  handler: async ({ deps, auth, params, body }) => {
    await getSegment(deps, auth.team.id, params.id);
    return { object: 'contact', id: (await updateContact(deps, auth.team.id, params.contact_id, body, 'api')).id };
  },
});
