import { apiRoute } from '@mailstack/core/http/api-route';
import { ContactParams, ContactTopicsUpdated } from '@mailstack/core/schemas/contacts';
import { UpdateContactTopicsRequest } from '@mailstack/core/schemas/topics';
import { loadContact } from '@mailstack/core/domain/contacts/contact';
import { setTopicChoices } from '@mailstack/core/domain/topics/set-topic-choices';

/** PATCH /contacts/{id or email}/topics: a bare array or {topics: [...]}. */
export const handler = apiRoute({
  access: 'full',
  response: ContactTopicsUpdated,
  params: ContactParams,
  body: UpdateContactTopicsRequest,
  handler: async ({ deps, auth, params, body }) => {
    const contact = await loadContact(deps, auth.team.id, params.id);
    await setTopicChoices(deps, auth.team.id, contact, body, 'api');
    return { object: 'contact_topics', id: contact.id, contact_id: contact.id, topics: body };
  },
});
