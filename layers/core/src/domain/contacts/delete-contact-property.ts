import { getContactProperty, seedPropertyCounter, type ContactProperty } from './contact-property.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { transact } from '../../table/ops.ts';

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
