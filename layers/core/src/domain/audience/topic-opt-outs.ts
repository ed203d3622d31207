import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { batchGetItems, getItem } from '../../table/ops.ts';
import type { Subscription } from '../topics/vocabulary.ts';

/**
 * The addresses among `emails` whose effective subscription to the topic is opt_out: the
 * contact's explicit choice, else the topic's default (an address with no contact takes the
 * default). Returns undefined when the team has no such topic.
 */
export const topicOptOuts = async (
  deps: Deps,
  teamId: string,
  topicId: string,
  emails: readonly string[],
): Promise<Set<string> | undefined> => {
  const topic = await getItem(deps, keys.topic.item(teamId, topicId), false);
  if (!topic) return undefined;
  const fallback = topic.default_subscription as Subscription;
  const unique = [...new Set(emails.map((e) => e.toLowerCase()))];
  const guards = await batchGetItems(
    deps,
    unique.map((e) => keys.contact.emailGuard(teamId, e)),
  );
  const contactOf = new Map(guards.map((g) => [String(g.email).toLowerCase(), g.contact_id as string]));
  const choices = await batchGetItems(
    deps,
    [...contactOf.values()].map((c) => keys.contact.topicChoice(teamId, c, topicId)),
  );
  const choiceOf = new Map(choices.map((c) => [c.contact_id as string, c.subscription as Subscription]));
  const out = new Set<string>();
  for (const email of unique) {
    const contactId = contactOf.get(email);
    const effective = (contactId && choiceOf.get(contactId)) || fallback;
    if (effective === 'opt_out') out.add(email);
  }
  return out;
};
