import { getSegment } from './segment.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { batchGetItems } from '../../table/ops.ts';
import { queryPage } from '../../table/query-page.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Page } from '../paging.ts';
import { contactFromItem, type Contact } from '../contacts/contact.ts';

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
