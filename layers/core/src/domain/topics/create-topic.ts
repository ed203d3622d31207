import { topicEventData, topicFromItem, type Topic } from './topic.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { transact } from '../../table/ops.ts';
import { eventItem, publishEvents } from '../events/record-event.ts';
import type { Subscription, TopicVisibility } from './vocabulary.ts';

/** Creates a topic (visibility private unless given). */
export const createTopic = async (
  deps: Deps,
  teamId: string,
  input: {
    name: string;
    default_subscription: Subscription;
    description?: string | null | undefined;
    visibility?: TopicVisibility | undefined;
  },
): Promise<Topic> => {
  const id = deps.ids.next();
  const now = new Date(deps.clock.now()).toISOString();
  const item = {
    ...keys.topic.item(teamId, id),
    type: 'topic',
    id,
    team_id: teamId,
    name: input.name,
    description: input.description ?? null,
    default_subscription: input.default_subscription,
    visibility: input.visibility ?? 'private',
    created_at: now,
    updated_at: now,
  };
  const created = eventItem(deps, teamId, 'topic.created', topicEventData(topicFromItem(item), now));
  await transact(deps, [{ put: item }, { put: created.item }]);
  await publishEvents(deps, [created.record]);
  return topicFromItem(item);
};
