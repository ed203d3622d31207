import { allTopics, type Topic } from './topic.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryAll } from '../../table/ops.ts';
import type { Subscription } from './vocabulary.ts';

/** A contact's entry for each topic: the effective subscription and whether it was chosen. */
export const contactTopics = async (deps: Deps, teamId: string, contactId: string, topics?: Topic[]) => {
  const all = topics ?? (await allTopics(deps, teamId));
  const choices = new Map(
    (
      await queryAll(deps, { pk: keys.contact.partition(teamId), prefix: keys.contact.topicChoicePrefix(contactId) })
    ).map((c) => [c.topic_id as string, c.subscription as Subscription]),
  );
  return all.map((t) => ({
    id: t.id,
    name: t.name,
    description: t.description,
    subscription: choices.get(t.id) ?? t.defaultSubscription,
    explicit: choices.has(t.id),
    visibility: t.visibility,
  }));
};
