import { topicFromItem } from './topic.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { batchGetItems, transact, type Write } from '../../table/ops.ts';
import { validationError } from '../../errors/api-error.ts';
import { eventItem, publishEvents, type EventSource, type EventType } from '../events/record-event.ts';
import { contactEventData, type Contact } from '../contacts/contact.ts';
import type { Subscription } from './vocabulary.ts';
import { countMetrics } from '../metrics/count-metrics.ts';

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
    ).map((i) => [i.id as string, topicFromItem(i)]),
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
