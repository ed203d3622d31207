import type { Deps } from '../../runtime/deps.ts';
import { findContact, type Contact } from '../contacts/contact.ts';
import { updateContact } from '../contacts/write-contact.ts';
import { allTopics } from '../topics/topic.ts';
import { contactTopics } from '../topics/contact-topics.ts';
import { setTopicChoices } from '../topics/set-topic-choices.ts';
import { addSuppression } from '../suppressions/suppression-store.ts';
import { verifyLink } from './tokens.ts';

const contactOf = async (deps: Deps, token: string): Promise<Contact | undefined> => {
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

/** Records the choices submitted on the hosted page (source hosted_page). */
export const savePreferences = async (
  deps: Deps,
  token: string,
  choices: { readonly topics: readonly string[]; readonly unsubscribeAll: boolean },
): Promise<Preferences | undefined> => {
  const contact = await contactOf(deps, token);
  if (!contact) return undefined;
  const chosen = new Set(choices.topics);
  const publicTopics = (await allTopics(deps, contact.teamId)).filter((t) => t.visibility === 'public');
  await setTopicChoices(
    deps,
    contact.teamId,
    contact,
    publicTopics.map((t) => ({ id: t.id, subscription: chosen.has(t.id) ? 'opt_in' : 'opt_out' })),
    'hosted_page',
  );
  await updateContact(deps, contact.teamId, contact.id, { unsubscribed: choices.unsubscribeAll }, 'hosted_page');
  return preferencesOf(deps, token);
};

/** Whether an unsubscribe link verifies (its page only asks for confirmation: a GET never unsubscribes, mail scanners prefetch). */
export const unsubscribeLinkHolds = async (deps: Deps, token: string): Promise<boolean> =>
  (await verifyLink(deps, token, 'u')) !== undefined;

/**
 * RFC 8058 one-click unsubscribe (source one_click): a contact opts out of the link's topic (or
 * of all marketing mail without one); an address with no contact is suppressed with origin
 * unsubscribe, which counts against topic sends only.
 */
export const oneClickUnsubscribe = async (deps: Deps, token: string): Promise<boolean> => {
  const claims = await verifyLink(deps, token, 'u');
  if (!claims?.email) return false;
  const contact = await findContact(deps, claims.teamId, claims.email);
  if (contact && claims.topicId)
    await setTopicChoices(
      deps,
      claims.teamId,
      contact,
      [{ id: claims.topicId, subscription: 'opt_out' }],
      'one_click',
    ).catch(() => undefined);
  else if (contact) await updateContact(deps, claims.teamId, contact.id, { unsubscribed: true }, 'one_click');
  else
    await addSuppression(deps, {
      teamId: claims.teamId,
      email: claims.email,
      origin: 'unsubscribe',
      source: 'one_click',
    });
  return true;
};
