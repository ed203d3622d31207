import { removeFromSegment } from './remove-from-segment.ts';
import { getSegment, type Segment } from './segment.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { deleteItem, queryAll } from '../../table/ops.ts';

/** Deletes a segment and its memberships (the contacts stay). */
export const deleteSegment = async (deps: Deps, teamId: string, id: string): Promise<Segment> => {
  const s = await getSegment(deps, teamId, id);
  for (const m of await queryAll(deps, {
    pk: keys.contact.partition(teamId),
    prefix: keys.contact.membershipPrefix(id),
  })) {
    await removeFromSegment(deps, teamId, m.contact_id, id).catch(() => undefined);
  }
  await deleteItem(deps, keys.segment.item(teamId, id));
  return s;
};
