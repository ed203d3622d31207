import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem } from '../../table/ops.ts';
import { notFound, validationError } from '../../errors/api-error.ts';
import { isUuid } from '../../ports/ids.ts';
import type { EventFieldType } from './vocabulary.ts';

/** A custom event a team defined: its name and, optionally, the types of its payload's fields. */
export interface EventDefinition {
  readonly id: string;
  readonly name: string;
  readonly schema: Readonly<Record<string, EventFieldType>> | null;
  readonly createdAt: string;
  readonly updatedAt: string | null;
}

export const eventDefinitionFromItem = (i: Record<string, any>): EventDefinition => ({
  id: i.id,
  name: i.name,
  schema: i.schema ?? null,
  createdAt: i.created_at,
  updatedAt: i.updated_at ?? null,
});

/** The wire event (without `object` in lists). */
export const eventDefinitionRow = (e: EventDefinition) => ({
  id: e.id,
  name: e.name,
  schema: e.schema,
  created_at: e.createdAt,
  updated_at: e.updatedAt,
});

/** The team's definition of an event by id or name; undefined when it has none. */
export const findEventDefinition = async (
  deps: Deps,
  teamId: string,
  idOrName: string,
): Promise<EventDefinition | undefined> => {
  let id = idOrName;
  if (!isUuid(idOrName)) {
    const guard = await getItem(deps, keys.eventDefinition.nameGuard(teamId, idOrName));
    if (!guard) return undefined;
    id = guard.event_id;
  }
  const item = await getItem(deps, keys.eventDefinition.item(teamId, id));
  return item ? eventDefinitionFromItem(item) : undefined;
};

/** Reads an event definition by id or name; 404 for none (or another team's). */
export const getEventDefinition = async (deps: Deps, teamId: string, idOrName: string): Promise<EventDefinition> => {
  const e = await findEventDefinition(deps, teamId, idOrName);
  if (!e) throw notFound(`Event ${idOrName}`);
  return e;
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Checks a sent payload against the event's schema: each declared field present is of its type (422 naming it). */
export const checkPayload = (
  definition: EventDefinition | undefined,
  payload: Readonly<Record<string, unknown>>,
): void => {
  if (!definition?.schema) return;
  for (const [field, type] of Object.entries(definition.schema)) {
    const value = payload[field];
    if (value === undefined || value === null) continue;
    const ok =
      type === 'date'
        ? typeof value === 'string' && ISO_DATE.test(value) && !Number.isNaN(Date.parse(value))
        : type === 'number'
          ? typeof value === 'number' && Number.isFinite(value)
          : typeof value === type;
    if (!ok)
      throw validationError(
        `\`payload.${field}\` must be a ${type === 'date' ? 'date (ISO 8601, such as 2026-01-31T12:00:00Z)' : type}, as the schema of event \`${definition.name}\` says.`,
      );
  }
};
