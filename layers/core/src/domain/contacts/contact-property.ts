import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, queryAll, seedCounter } from '../../table/ops.ts';
import { notFound, validationError } from '../../errors/api-error.ts';

/** A declared contact property. */
export interface ContactProperty {
  readonly id: string;
  readonly key: string;
  readonly type: 'string' | 'number';
  readonly fallbackValue: string | number | null;
  readonly createdAt: string;
}

export const contactPropertyFromItem = (i: Record<string, any>): ContactProperty => ({
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
export const seedPropertyCounter = (deps: Deps, teamId: string): Promise<void> =>
  seedCounter(deps, keys.contactProperty.counter(teamId), 'contact_property_count', {
    pk: keys.contactProperty.partition(teamId),
    prefix: keys.contactProperty.prefix,
  });

/** Reads a property; 404 for another team's. */
export const getContactProperty = async (deps: Deps, teamId: string, id: string): Promise<ContactProperty> => {
  const item = await getItem(deps, keys.contactProperty.item(teamId, id));
  if (!item) throw notFound('Contact property');
  return contactPropertyFromItem(item);
};

/** Every declared property of a team, by key. */
export const propertyTypes = async (deps: Deps, teamId: string): Promise<Map<string, ContactProperty>> =>
  new Map(
    (await queryAll(deps, { pk: keys.contactProperty.partition(teamId), prefix: keys.contactProperty.prefix })).map(
      (i) => [i.key as string, contactPropertyFromItem(i)],
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
