import { getSegment, type Segment } from './segment.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { transact } from '../../table/ops.ts';
import { contactItem, loadContact, type Contact } from '../contacts/contact.ts';

/** Adds a contact to a segment (idempotent). */
export const addToSegment = async (
  deps: Deps,
  teamId: string,
  idOrEmail: string,
  segmentId: string,
): Promise<{ contact: Contact; segment: Segment }> => {
  const [contact, segment] = await Promise.all([
    loadContact(deps, teamId, idOrEmail),
    getSegment(deps, teamId, segmentId),
  ]);
  if (!contact.segmentIds.includes(segmentId)) {
    const next = { ...contact, segmentIds: [...contact.segmentIds, segmentId] };
    await transact(deps, [
      { put: contactItem(next) },
      {
        put: {
          ...keys.contact.membership(teamId, segmentId, contact.id),
          type: 'segment_member',
          segment_id: segmentId,
          contact_id: contact.id,
        },
      },
    ]);
  }
  return { contact, segment };
};
