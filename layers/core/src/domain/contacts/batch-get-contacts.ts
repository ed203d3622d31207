import { mapPooled } from '../batch.ts';
import type { Deps } from '../../runtime/deps.ts';
import { findContact, type Contact } from './contact.ts';
import { expandContacts } from './contact-views.ts';

/** Batch get: contacts in request order, with `missing` naming the request indexes not found. */
export const batchGetContacts = async (
  deps: Deps,
  teamId: string,
  refs: readonly ({ id: string } | { email: string })[],
  include: readonly string[],
) => {
  const found = await mapPooled(refs, (ref) => findContact(deps, teamId, 'id' in ref ? ref.id : ref.email));
  const missing = refs.flatMap((ref, index) =>
    found[index] ? [] : [{ index, id: 'id' in ref ? ref.id : null, email: 'email' in ref ? ref.email : null }],
  );
  const contacts = found.filter((c): c is Contact => !!c);
  return { object: 'list' as const, data: await expandContacts(deps, teamId, contacts, include), missing };
};
