import type { Deps } from '../../runtime/deps.ts';
import type { Contact } from './contact.ts';
import { propertiesView, propertyTypes } from './contact-property.ts';
import { allTopics } from '../topics/topic.ts';
import { contactTopics } from '../topics/contact-topics.ts';

/** The list row of a contact. */
const contactRow = (c: Contact) => ({
  id: c.id,
  email: c.email,
  first_name: c.firstName,
  last_name: c.lastName,
  created_at: c.createdAt,
  unsubscribed: c.unsubscribed,
});

/** Adds `properties` and/or `topics` to contact rows, as `include` asks. */
export const expandContacts = async (
  deps: Deps,
  teamId: string,
  contacts: readonly Contact[],
  include: readonly string[],
) => {
  const declared = include.includes('properties') ? await propertyTypes(deps, teamId) : undefined;
  const topics = include.includes('topics') ? await allTopics(deps, teamId) : undefined;
  return Promise.all(
    contacts.map(async (c) => ({
      object: 'contact' as const,
      ...contactRow(c),
      ...(declared ? { properties: propertiesView(declared, c.properties) } : {}),
      ...(topics ? { topics: await contactTopics(deps, teamId, c.id, topics) } : {}),
    })),
  );
};

/** GET /contacts/{id}: the contact, always with its properties. */
export const contactView = async (deps: Deps, c: Contact) => {
  const [row] = await expandContacts(deps, c.teamId, [c], ['properties']);
  return row!;
};
