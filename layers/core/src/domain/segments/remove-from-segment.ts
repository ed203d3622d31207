import { getSegment, type Segment } from './segment.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { transact } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';
import { contactItem, loadContact, type Contact } from '../contacts/contact.ts';

/** Removes a contact from a segment. */
export const removeFromSegment = async (
  deps: Deps,
  teamId: string,
  idOrEmail: string,
  segmentId: string,
): Promise<{ contact: Contact; segment: Segment }> => {
  const [contact, segment] = await Promise.all([
    loadContact(deps, teamId, idOrEmail),
    getSegment(deps, teamId, segmentId),
  ]);
  if (!contact.segmentIds.includes(segmentId)) throw notFound('Contact in this segment');
  await transact(deps, [
    { put: contactItem({ ...contact, segmentIds: contact.segmentIds.filter((s) => s !== segmentId) }) },
    { delete: keys.contact.membership(teamId, segmentId, contact.id) },
  ]);
  return { contact, segment };
};
