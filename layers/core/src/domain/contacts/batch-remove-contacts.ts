import { mapPooled } from '../batch.ts';
import type { Deps } from '../../runtime/deps.ts';
import { startErase } from './erase-history.ts';
import { findContact, type Contact } from './contact.ts';
import { deleteContact } from './delete-contact.ts';

/**
 * Batch remove by ids and/or emails. With `erase`, the addresses are also replaced by "[erased]"
 * in the team's stored emails and event payloads, by the erase worker (the call answers at
 * once; each contact's `contact.erased` event says when the erase finished).
 */
export const batchRemoveContacts = async (
  deps: Deps,
  teamId: string,
  input: { ids?: readonly string[] | undefined; emails?: readonly string[] | undefined; erase?: boolean | undefined },
) => {
  const refs = [...(input.ids ?? []), ...(input.emails ?? [])];
  const removed = await mapPooled(refs, async (ref) => {
    const c = await findContact(deps, teamId, ref);
    if (!c) return undefined;
    await deleteContact(deps, teamId, c.id, 'api', input.erase === true);
    return c;
  });
  const gone = removed.filter((c): c is Contact => !!c);
  if (input.erase) await startErase(deps, teamId, gone);
  return {
    object: 'list' as const,
    data: gone.map((c) => ({ object: 'contact' as const, contact: c.id, id: c.id, deleted: true })),
  };
};
