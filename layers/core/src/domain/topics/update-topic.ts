import { getTopic, topicEventData, type Topic } from './topic.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { updateItem } from '../../table/ops.ts';
import { recordEvent } from '../events/record-event.ts';
import type { TopicVisibility } from './vocabulary.ts';

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
