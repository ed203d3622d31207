import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { batchGetItems, getItem, queryAll, transact, updateItem, type Write } from '../../table/ops.ts';
import { notFound, validationError } from '../../errors/api-error.ts';
import { queryPage } from '../../table/query-page.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Page } from '../paging.ts';
import { eventItem, publishEvents, recordEvent, type EventSource, type EventType } from '../events/record-event.ts';
import { contactEventData, type Contact } from '../contacts/contact.ts';
import type { Subscription, TopicVisibility } from './vocabulary.ts';
import { countMetrics } from '../metrics/count-metrics.ts';

/** A topic contacts subscribe to. */
export interface Topic {
  readonly id: string;
  readonly name: string;
  readonly description: string | null;
  readonly defaultSubscription: Subscription;
  readonly visibility: TopicVisibility;
  readonly createdAt: string;
}

const fromItem = (i: Record<string, any>): Topic => ({
  id: i.id,
  name: i.name,
  description: i.description ?? null,
  defaultSubscription: i.default_subscription,
  visibility: i.visibility ?? 'private',
  createdAt: i.created_at,
});

/** The `data` of topic.* events (the SDK's TopicEventData). */
const topicEventData = (t: Topic, updatedAt: string, deleted = false) => ({
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
  const created = eventItem(deps, teamId, 'topic.created', topicEventData(fromItem(item), now));
  await transact(deps, [{ put: item }, { put: created.item }]);
  await publishEvents(deps, [created.record]);
  return fromItem(item);
};

/** Reads a topic; 404 for another team's. */
export const getTopic = async (deps: Deps, teamId: string, id: string): Promise<Topic> => {
  const item = await getItem(deps, keys.topic.item(teamId, id));
  if (!item) throw notFound('Topic');
  return fromItem(item);
};

/** A page of the team's topics. */
export const listTopics = async (deps: Deps, teamId: string, page: Pagination): Promise<Page<Topic>> => {
  const { items, hasMore } = await queryPage(
    deps,
    { pk: keys.topic.partition(teamId), prefix: keys.topic.prefix },
    page,
  );
  return { items: items.map(fromItem), hasMore };
};

/** Every topic of a team. */
export const allTopics = async (deps: Deps, teamId: string): Promise<Topic[]> =>
  (await queryAll(deps, { pk: keys.topic.partition(teamId), prefix: keys.topic.prefix })).map(fromItem);

/** Changes name, description or visibility. */
export const updateTopic = async (
  deps: Deps,
  teamId: string,
  id: string,
  change: {
    name?: string | undefined;
    description?: string | null | undefined;
    visibility?: TopicVisibility | undefined;
  },
): Promise<Topic> => {
  const t = await getTopic(deps, teamId, id);
  const next = {
    ...t,
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...(change.description !== undefined ? { description: change.description } : {}),
    ...(change.visibility !== undefined ? { visibility: change.visibility } : {}),
  };
  await updateItem(deps, keys.topic.item(teamId, id), {
    set: {
      name: next.name,
      description: next.description,
      visibility: next.visibility,
      updated_at: new Date(deps.clock.now()).toISOString(),
    },
  });
  await recordEvent(deps, teamId, 'topic.updated', topicEventData(next, new Date(deps.clock.now()).toISOString()));
  return next;
};

/** Deletes a topic. */
export const deleteTopic = async (deps: Deps, teamId: string, id: string): Promise<Topic> => {
  const t = await getTopic(deps, teamId, id);
  const deleted = eventItem(
    deps,
    teamId,
    'topic.deleted',
    topicEventData(t, new Date(deps.clock.now()).toISOString(), true),
  );
  await transact(deps, [{ delete: keys.topic.item(teamId, id) }, { put: deleted.item }]);
  await publishEvents(deps, [deleted.record]);
  return t;
};

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

/**
 * Records a contact's explicit topic choices, and contact.topic_opt_in / opt_out events where the
 * effective subscription flips, and one contact.topics.updated when a recorded choice changed.
 */
export const setTopicChoices = async (
  deps: Deps,
  teamId: string,
  contact: Contact,
  choices: readonly { id: string; subscription: Subscription }[],
  source: EventSource,
): Promise<void> => {
  if (choices.length === 0) return;
  const topics = new Map(
    (
      await batchGetItems(
        deps,
        [...new Set(choices.map((c) => c.id))].map((id) => keys.topic.item(teamId, id)),
      )
    ).map((i) => [i.id as string, fromItem(i)]),
  );
  for (const c of choices) if (!topics.has(c.id)) throw validationError(`\`topics\`: this team has no topic ${c.id}.`);
  const current = new Map(
    (
      await batchGetItems(
        deps,
        choices.map((c) => keys.contact.topicChoice(teamId, contact.id, c.id)),
      )
    ).map((i) => [i.topic_id as string, i.subscription as string]),
  );
  const writes: Write[] = [];
  const events: ReturnType<typeof eventItem>[] = [];
  for (const c of choices) {
    const topic = topics.get(c.id)!;
    const before = current.get(c.id) ?? topic.defaultSubscription;
    writes.push({
      put: {
        ...keys.contact.topicChoice(teamId, contact.id, c.id),
        type: 'topic_choice',
        contact_id: contact.id,
        topic_id: c.id,
        subscription: c.subscription,
      },
    });
    if (before !== c.subscription) {
      const type: EventType = c.subscription === 'opt_in' ? 'contact.topic_opt_in' : 'contact.topic_opt_out';
      const e = eventItem(deps, teamId, type, {
        ...contactEventData(contact, source),
        topic_id: topic.id,
        topic_name: topic.name,
      });
      events.push(e);
      writes.push({ put: e.item });
    }
  }
  // The reference's contact.topics.updated: once per change of the contact's recorded choices, with every choice made.
  if (choices.some((c) => current.get(c.id) !== c.subscription)) {
    const e = eventItem(deps, teamId, 'contact.topics.updated', {
      ...contactEventData(contact, source),
      topics: choices.map((c) => ({ id: c.id, subscription: c.subscription })),
    });
    events.push(e);
    writes.push({ put: e.item });
  }
  for (let i = 0; i < writes.length; i += 100) await transact(deps, writes.slice(i, i + 100));
  // A recipient's one-click opt-out (the mail's List-Unsubscribe link) counts once in the email metrics' unsubscribes
  // (the preference page's save counts its unsubscribe from everything, in updateContact, rather than each topic).
  const optedOut = choices.some(
    (c) => c.subscription === 'opt_out' && (current.get(c.id) ?? topics.get(c.id)!.defaultSubscription) !== 'opt_out',
  );
  if (optedOut && source === 'one_click')
    await countMetrics(deps, { team_id: teamId, id: contact.id }, { unsubscribed: 1 });
  await publishEvents(
    deps,
    events.map((e) => e.record),
  );
};
