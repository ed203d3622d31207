import { segmentFromItem, type Segment } from './segment.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { batchGetItems } from '../../table/ops.ts';
import { loadContact } from '../contacts/contact.ts';

/** The segments a contact belongs to. */
export const segmentsOfContact = async (deps: Deps, teamId: string, idOrEmail: string): Promise<Segment[]> => {
  const contact = await loadContact(deps, teamId, idOrEmail);
  // Newest first, as every list: ids are UUIDv7, so their order is their creation order.
  return (
    await batchGetItems(
      deps,
      contact.segmentIds.map((id) => keys.segment.item(teamId, id)),
    )
  )
    .map(segmentFromItem)
    .sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
};
