import { seedPropertyCounter, contactPropertyFromItem, type ContactProperty } from './contact-property.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { transact } from '../../table/ops.ts';
import { MAX_CONTACT_PROPERTIES } from '../../limits.ts';
import { ApiError, validationError } from '../../errors/api-error.ts';

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
  return contactPropertyFromItem(item);
};
