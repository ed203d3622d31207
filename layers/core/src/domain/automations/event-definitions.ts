import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, transact, updateItem } from '../../table/ops.ts';
import { ApiError, notFound, validationError } from '../../errors/api-error.ts';
import { queryPage } from '../../table/query-page.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Page } from '../paging.ts';
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

const fromItem = (i: Record<string, any>): EventDefinition => ({
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
  return fromItem(item);
};

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
  return item ? fromItem(item) : undefined;
};

/** Reads an event definition by id or name; 404 for none (or another team's). */
export const getEventDefinition = async (deps: Deps, teamId: string, idOrName: string): Promise<EventDefinition> => {
  const e = await findEventDefinition(deps, teamId, idOrName);
  if (!e) throw notFound(`Event ${idOrName}`);
  return e;
};

/** A page of the team's event definitions, newest first. */
export const listEventDefinitions = async (
  deps: Deps,
  teamId: string,
  page: Pagination,
): Promise<Page<EventDefinition>> => {
  const { items, hasMore } = await queryPage(
    deps,
    { pk: keys.eventDefinition.partition(teamId), prefix: keys.eventDefinition.prefix },
    page,
  );
  return { items: items.map(fromItem), hasMore };
};

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

/** Deletes an event definition (automations that name the event keep their trigger: events of that name still start them). */
export const deleteEventDefinition = async (deps: Deps, teamId: string, idOrName: string): Promise<EventDefinition> => {
  const e = await getEventDefinition(deps, teamId, idOrName);
  await transact(deps, [
    { delete: keys.eventDefinition.item(teamId, e.id) },
    { delete: keys.eventDefinition.nameGuard(teamId, e.name) },
  ]);
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
