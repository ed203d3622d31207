import type { Deps } from '../../runtime/deps.ts';
import { findContact, type Contact } from '../contacts/contact.ts';
import { contactTopics } from '../topics/contact-topics.ts';
import { verifyLink } from './tokens.ts';

export const contactOf = async (deps: Deps, token: string): Promise<Contact | undefined> => {
  const claims = await verifyLink(deps, token, 'p');
  if (!claims?.contactId) return undefined;
  return findContact(deps, claims.teamId, claims.contactId);
};

/** What the hosted preference page shows: the contact's address, its public topics with its choices, and global unsubscribe. */
export interface Preferences {
  readonly email: string;
  readonly unsubscribed: boolean;
  readonly topics: readonly { id: string; name: string; description: string | null; subscribed: boolean }[];
}

/** The preferences a preference link names (undefined: the link does not verify, or its contact is gone). */
export const preferencesOf = async (deps: Deps, token: string): Promise<Preferences | undefined> => {
  const contact = await contactOf(deps, token);
  if (!contact) return undefined;
  const topics = (await contactTopics(deps, contact.teamId, contact.id)).filter((t) => t.visibility === 'public');
  return {
    email: contact.email,
    unsubscribed: contact.unsubscribed,
    topics: topics.map((t) => ({
      id: t.id,
      name: t.name,
      description: t.description || null,
      subscribed: t.subscription === 'opt_in',
    })),
  };
};

/** Whether an unsubscribe link verifies (its page only asks for confirmation: a GET never unsubscribes, mail scanners prefetch). */
export const unsubscribeLinkHolds = async (deps: Deps, token: string): Promise<boolean> =>
  (await verifyLink(deps, token, 'u')) !== undefined;
