import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryPage } from '../../table/query-page.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Page } from '../paging.ts';
import { contactFromItem, type Contact } from './contact.ts';
import { contactsOfSegment } from '../segments/contacts-of-segment.ts';

/** A page of the team's contacts (or of one segment's), newest first. */
export const listContacts = async (
  deps: Deps,
  teamId: string,
  page: Pagination,
  segmentId?: string,
): Promise<Page<Contact>> => {
  if (segmentId) return contactsOfSegment(deps, teamId, segmentId, page);
  const { items, hasMore } = await queryPage(
    deps,
    { pk: keys.contact.partition(teamId), prefix: keys.contact.prefix },
    page,
  );
  return { items: items.map(contactFromItem), hasMore };
};
