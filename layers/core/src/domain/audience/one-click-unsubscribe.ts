import type { Deps } from '../../runtime/deps.ts';
import { findContact } from '../contacts/contact.ts';
import { updateContact } from '../contacts/update-contact.ts';
import { setTopicChoices } from '../topics/set-topic-choices.ts';
import { addSuppression } from '../suppressions/suppression-store.ts';
import { verifyLink } from './tokens.ts';

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
