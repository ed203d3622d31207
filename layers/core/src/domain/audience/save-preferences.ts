import { preferencesOf, type Preferences, contactOf } from './preferences.ts';
import type { Deps } from '../../runtime/deps.ts';
import { updateContact } from '../contacts/update-contact.ts';
import { allTopics } from '../topics/topic.ts';
import { setTopicChoices } from '../topics/set-topic-choices.ts';

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
