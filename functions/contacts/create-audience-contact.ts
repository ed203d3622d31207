import * as v from 'valibot';
import { apiRoute } from '@mailstack/core/http/api-route';
import { CreateContactRequest } from '@mailstack/core/schemas/contacts';
import { createContact } from '@mailstack/core/domain/contacts/create-contact';
import { getSegment } from '@mailstack/core/domain/segments/segment';
import { ObjectRef } from '@mailstack/core/schemas/common';

/** POST /audiences/{id}/contacts: the legacy alias of POST /contacts that also joins the audience. */
export const handler = apiRoute({
  access: 'full',
  response: ObjectRef('contact'),
  errors: ['conflict', 'plan_limit_reached'],
  params: v.object({ id: v.pipe(v.string(), v.uuid('must be an audience id.')) }),
  body: CreateContactRequest,
  status: 201,
  handler: async ({ deps, auth, params, body }) => {
    await getSegment(deps, auth.team.id, params.id);
    return { object: 'contact', id: (await createContact(deps, auth.team, { ...body, audience_id: params.id })).id };
  },
});
