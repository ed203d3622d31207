import { getTopic, topicEventData, type Topic } from './topic.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { transact } from '../../table/ops.ts';
import { eventItem, publishEvents } from '../events/record-event.ts';

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
