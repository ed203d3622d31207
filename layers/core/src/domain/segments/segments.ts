import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { batchGetItems, deleteItem, getItem, putItem, queryAll, transact, updateItem } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';
import { queryPage } from '../../table/query-page.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Page } from '../paging.ts';
import { contactFromItem, contactItem, loadContact, type Contact } from '../contacts/contact.ts';

/** A segment of contacts (audiences are the same thing under their older name). */
export interface Segment {
  readonly id: string;
  readonly name: string;
  readonly createdAt: string;
}

const fromItem = (i: Record<string, any>): Segment => ({ id: i.id, name: i.name, createdAt: i.created_at });

/** The wire segment (or audience). */
export const segmentView = (s: Segment, object: 'segment' | 'audience' = 'segment') => ({
  object,
  id: s.id,
  name: s.name,
  created_at: s.createdAt,
  // The reference still declares these on segments: the deprecated audience link and a filter (we have neither).
  ...(object === 'segment' ? { audience_id: null, filter: null } : {}),
});

/** Creates a segment. */
export const createSegment = async (deps: Deps, teamId: string, name: string): Promise<Segment> => {
  const id = deps.ids.next();
  const item = {
    ...keys.segment.item(teamId, id),
    type: 'segment',
    id,
    team_id: teamId,
    name,
    created_at: new Date(deps.clock.now()).toISOString(),
  };
  await putItem(deps, item);
  return fromItem(item);
};

/** Reads a segment; 404 for another team's. */
export const getSegment = async (deps: Deps, teamId: string, id: string): Promise<Segment> => {
  const item = await getItem(deps, keys.segment.item(teamId, id));
  if (!item) throw notFound('Segment');
  return fromItem(item);
};

/** A page of the team's segments. */
export const listSegments = async (deps: Deps, teamId: string, page: Pagination): Promise<Page<Segment>> => {
  const { items, hasMore } = await queryPage(
    deps,
    { pk: keys.segment.partition(teamId), prefix: keys.segment.prefix },
    page,
  );
  return { items: items.map(fromItem), hasMore };
};

/** Renames a segment. */
export const renameSegment = async (deps: Deps, teamId: string, id: string, name: string): Promise<Segment> => {
  const s = await getSegment(deps, teamId, id);
  await updateItem(deps, keys.segment.item(teamId, id), { set: { name } });
  return { ...s, name };
};

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
    .map(fromItem)
    .sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
};

/** A page of a segment's contacts, newest first (the memberships are read, then the contacts). */
export const contactsOfSegment = async (
  deps: Deps,
  teamId: string,
  segmentId: string,
  page: Pagination,
): Promise<Page<Contact>> => {
  await getSegment(deps, teamId, segmentId);
  const { items, hasMore } = await queryPage(
    deps,
    { pk: keys.contact.partition(teamId), prefix: keys.contact.membershipPrefix(segmentId) },
    page,
  );
  const rows = await batchGetItems(
    deps,
    items.map((m) => keys.contact.item(teamId, m.contact_id)),
  );
  const byId = new Map(rows.map((r) => [r.id as string, contactFromItem(r)]));
  return { items: items.map((m) => byId.get(m.contact_id)).filter((c): c is Contact => !!c), hasMore };
};
