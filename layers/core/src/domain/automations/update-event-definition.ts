import { getEventDefinition, type EventDefinition } from './event-definition.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { updateItem } from '../../table/ops.ts';
import type { EventFieldType } from './vocabulary.ts';

/** Replaces an event's payload schema (null clears it). */
export const updateEventDefinition = async (
  deps: Deps,
  teamId: string,
  idOrName: string,
  schema: Record<string, EventFieldType> | null,
): Promise<EventDefinition> => {
  const e = await getEventDefinition(deps, teamId, idOrName);
  const updatedAt = new Date(deps.clock.now()).toISOString();
  await updateItem(deps, keys.eventDefinition.item(teamId, e.id), { set: { schema, updated_at: updatedAt } });
  return { ...e, schema, updatedAt };
};
