import { getEventDefinition, type EventDefinition } from './event-definition.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { transact } from '../../table/ops.ts';

/** Deletes an event definition (automations that name the event keep their trigger: events of that name still start them). */
export const deleteEventDefinition = async (deps: Deps, teamId: string, idOrName: string): Promise<EventDefinition> => {
  const e = await getEventDefinition(deps, teamId, idOrName);
  await transact(deps, [
    { delete: keys.eventDefinition.item(teamId, e.id) },
    { delete: keys.eventDefinition.nameGuard(teamId, e.name) },
  ]);
  return e;
};
