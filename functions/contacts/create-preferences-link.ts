import { apiRoute } from '@mailstack/core/http/api-route';
import { ContactParams, PreferencesLink } from '@mailstack/core/schemas/contacts';
import { loadContact } from '@mailstack/core/domain/contacts/contact';
import { preferencesUrl } from '@mailstack/core/domain/audience/unsubscribe-url';

/** POST /contacts/{id or email}/preferences-link: a secret URL that never expires. */
export const handler = apiRoute({
  access: 'full',
  response: PreferencesLink,
  params: ContactParams,
  handler: async ({ deps, auth, params }) => {
    const contact = await loadContact(deps, auth.team.id, params.id);
    return {
      object: 'preferences_link',
      contact: contact.id,
      url: await preferencesUrl(deps, { teamId: auth.team.id, contactId: contact.id }),
    };
  },
});
