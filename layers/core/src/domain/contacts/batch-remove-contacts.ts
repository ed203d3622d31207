import { mapPooled } from '../batch.ts';
import type { Deps } from '../../runtime/deps.ts';
import { startErase } from './erase-history.ts';
import { findContact, type Contact } from './contact.ts';
import { removeContact } from './delete-contact.ts';

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
  // Every name read first, then each contact removed once: one contact may be named by its id and
  // its address, or by one address twice in two cases; removed at the same time, the second
  // removal found it gone and refused the whole batch (404) after removing part of it.
  const found = (await mapPooled(refs, (ref) => findContact(deps, teamId, ref))).filter((c): c is Contact => !!c);
  const contacts = [...new Map(found.map((c) => [c.id, c])).values()];
  // A contact another request removes meanwhile is not this call's to list.
  const removed = await mapPooled(contacts, async (c) =>
    (await removeContact(deps, teamId, c, 'api', input.erase === true)) ? c : undefined,
  );
  const gone = removed.filter((c): c is Contact => !!c);
  if (input.erase) await startErase(deps, teamId, gone);
  return {
    object: 'list' as const,
    data: gone.map((c) => ({ object: 'contact' as const, contact: c.id, id: c.id, deleted: true })),
  };
};
