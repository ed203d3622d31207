import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, queryAll, seedCounter, transact, updateItem } from '../../table/ops.ts';
import { MAX_CONTACT_PROPERTIES } from '../../limits.ts';
import { ApiError, notFound, validationError } from '../../errors/api-error.ts';
import { queryPage } from '../../table/query-page.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Page } from '../paging.ts';

/** A declared contact property. */
export interface ContactProperty {
  readonly id: string;
  readonly key: string;
  readonly type: 'string' | 'number';
  readonly fallbackValue: string | number | null;
  readonly createdAt: string;
}

const fromItem = (i: Record<string, any>): ContactProperty => ({
  id: i.id,
  key: i.key,
  type: i.value_type,
  fallbackValue: i.fallback_value ?? null,
  createdAt: i.created_at,
});

/** The wire object. */
export const contactPropertyView = (p: ContactProperty) => ({
  object: 'contact_property' as const,
  id: p.id,
  key: p.key,
  type: p.type,
  fallback_value: p.fallbackValue,
  created_at: p.createdAt,
});

/** Creates the team's property counter from its properties when it has none yet (a team from before the counter). */
const seedPropertyCounter = (deps: Deps, teamId: string): Promise<void> =>
  seedCounter(deps, keys.contactProperty.counter(teamId), 'contact_property_count', {
    pk: keys.contactProperty.partition(teamId),
    prefix: keys.contactProperty.prefix,
  });

/**
 * Declares a property; a key is unique per team, and a team defines at most
 * MAX_CONTACT_PROPERTIES (every contact's row holds a value for each): the counter moves in the
 * same conditional write as the create, so concurrent creates cannot pass it.
 */
export const createContactProperty = async (
  deps: Deps,
  teamId: string,
  input: { key: string; type: 'string' | 'number'; fallback_value?: string | number | null | undefined },
): Promise<ContactProperty> => {
  await seedPropertyCounter(deps, teamId);
  const id = deps.ids.next();
  const item = {
    ...keys.contactProperty.item(teamId, id),
    type: 'contact_property',
    id,
    key: input.key,
    value_type: input.type,
    fallback_value: input.fallback_value ?? null,
    created_at: new Date(deps.clock.now()).toISOString(),
  };
  const written = await transact(deps, [
    {
      put: { ...keys.contactProperty.keyGuard(teamId, input.key), type: 'contact_property_key', property_id: id },
      when: { exists: false },
    },
    { put: item },
    {
      update: keys.contactProperty.counter(teamId),
      change: { add: { count: 1 } },
      when: { attr: 'count', lt: MAX_CONTACT_PROPERTIES },
    },
  ]);
  if (!written.ok && written.failed === 2) {
    throw validationError(
      `A team may define at most ${MAX_CONTACT_PROPERTIES} contact properties; delete one before creating \`${input.key}\`.`,
    );
  }
  if (!written.ok) throw new ApiError('conflict', `A contact property with the key \`${input.key}\` already exists.`);
  return fromItem(item);
};

/** Reads a property; 404 for another team's. */
export const getContactProperty = async (deps: Deps, teamId: string, id: string): Promise<ContactProperty> => {
  const item = await getItem(deps, keys.contactProperty.item(teamId, id));
  if (!item) throw notFound('Contact property');
  return fromItem(item);
};

/** A page of the team's properties. */
export const listContactProperties = async (
  deps: Deps,
  teamId: string,
  page: Pagination,
): Promise<Page<ContactProperty>> => {
  const { items, hasMore } = await queryPage(
    deps,
    { pk: keys.contactProperty.partition(teamId), prefix: keys.contactProperty.prefix },
    page,
  );
  return { items: items.map(fromItem), hasMore };
};

/** Changes the fallback value (key and type are fixed). */
export const updateContactProperty = async (
  deps: Deps,
  teamId: string,
  id: string,
  fallback: string | number | null,
): Promise<ContactProperty> => {
  const p = await getContactProperty(deps, teamId, id);
  if (fallback !== null && typeof fallback !== p.type)
    throw validationError(`\`fallback_value\` must be a ${p.type}, as the property is.`);
  await updateItem(deps, keys.contactProperty.item(teamId, id), { set: { fallback_value: fallback } });
  return { ...p, fallbackValue: fallback };
};

/** Deletes a property declaration. */
export const deleteContactProperty = async (deps: Deps, teamId: string, id: string): Promise<ContactProperty> => {
  const p = await getContactProperty(deps, teamId, id);
  await seedPropertyCounter(deps, teamId);
  await transact(deps, [
    // Only the delete that removes it gives its slot back.
    { delete: keys.contactProperty.item(teamId, id), when: { exists: true } },
    { delete: keys.contactProperty.keyGuard(teamId, p.key) },
    { update: keys.contactProperty.counter(teamId), change: { add: { count: -1 } } },
  ]);
  return p;
};

/** Every declared property of a team, by key. */
export const propertyTypes = async (deps: Deps, teamId: string): Promise<Map<string, ContactProperty>> =>
  new Map(
    (await queryAll(deps, { pk: keys.contactProperty.partition(teamId), prefix: keys.contactProperty.prefix })).map(
      (i) => [i.key as string, fromItem(i)],
    ),
  );

/** Checks contact property values against the declared types (null removes a key). */
export const checkPropertyValues = (
  declared: Map<string, ContactProperty>,
  values: Readonly<Record<string, string | number | null>> | undefined,
  field = 'properties',
): void => {
  for (const [key, value] of Object.entries(values ?? {})) {
    const p = declared.get(key);
    if (!p)
      throw validationError(
        `\`${field}.${key}\` is not a declared contact property; create it with POST /contact-properties first.`,
      );
    if (value !== null && typeof value !== p.type) throw validationError(`\`${field}.${key}\` must be a ${p.type}.`);
  }
};

/**
 * The properties map of the wire contact: each declared key with the contact's value, or the
 * property's fallback. A key with neither is left out (spec §2: a value is a string or a number;
 * §4: null removes a key).
 */
export const propertiesView = (
  declared: Map<string, ContactProperty>,
  values: Readonly<Record<string, string | number>>,
) =>
  Object.fromEntries(
    [...declared.values()].flatMap((p) => {
      const value = values[p.key] ?? p.fallbackValue;
      return value === null || value === undefined ? [] : [[p.key, { type: p.type, value }]];
    }),
  );
