import { eventDefinitionFromItem, type EventDefinition } from './event-definition.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { transact } from '../../table/ops.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { EventFieldType } from './vocabulary.ts';

/** Defines an event; a name is unique per team (409 when taken). */
export const createEventDefinition = async (
  deps: Deps,
  teamId: string,
  input: { name: string; schema?: Record<string, EventFieldType> | null | undefined },
): Promise<EventDefinition> => {
  const id = deps.ids.next();
  const item = {
    ...keys.eventDefinition.item(teamId, id),
    type: 'event_definition',
    id,
    name: input.name,
    schema: input.schema ?? null,
    created_at: new Date(deps.clock.now()).toISOString(),
    updated_at: null,
  };
  const written = await transact(deps, [
    {
      put: { ...keys.eventDefinition.nameGuard(teamId, input.name), type: 'event_name', event_id: id },
      when: { exists: false },
    },
    { put: item },
  ]);
  if (!written.ok)
    throw new ApiError(
      'conflict',
      `An event named \`${input.name}\` already exists; update its schema with PATCH /events/${encodeURIComponent(input.name)}.`,
    );
  return eventDefinitionFromItem(item);
};
