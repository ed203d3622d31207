import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, queryAll } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';
import type { Subscription, TopicVisibility } from './vocabulary.ts';

/** A topic contacts subscribe to. */
export interface Topic {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly defaultSubscription: Subscription;
  readonly visibility: TopicVisibility;
  readonly createdAt: string;
}

/** A topic from its stored item. */
export const topicFromItem = (i: Record<string, any>): Topic => ({
  id: i.id,
  name: i.name,
  description: i.description ?? null,
  defaultSubscription: i.default_subscription,
  visibility: i.visibility ?? 'private',
  createdAt: i.created_at,
});

/** The `data` of topic.* events (the SDK's TopicEventData). */
export const topicEventData = (t: Topic, updatedAt: string, deleted = false) => ({
  id: t.id,
  name: t.name,
  description: t.description,
  default_subscription: t.defaultSubscription,
  deleted,
  created_at: t.createdAt,
  updated_at: updatedAt,
});

/** The wire topic. */
export const topicView = (t: Topic) => ({
  object: 'topic' as const,
  id: t.id,
  name: t.name,
  description: t.description,
  default_subscription: t.defaultSubscription,
  visibility: t.visibility,
  created_at: t.createdAt,
});

/** Reads a topic; 404 for another team's. */
export const getTopic = async (deps: Deps, teamId: string, id: string): Promise<Topic> => {
  const item = await getItem(deps, keys.topic.item(teamId, id));
  if (!item) throw notFound('Topic');
  return topicFromItem(item);
};

/** Every topic of a team. */
export const allTopics = async (deps: Deps, teamId: string): Promise<Topic[]> =>
  (await queryAll(deps, { pk: keys.topic.partition(teamId), prefix: keys.topic.prefix })).map(topicFromItem);
