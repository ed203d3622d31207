import { contactPropertyFromItem, type ContactProperty } from './contact-property.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryPage } from '../../table/query-page.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Page } from '../paging.ts';

/** A page of the team's properties. */
export const listContactProperties = async (
  deps: Deps,
  teamId: string,
  page: Pagination,
): Promise<Page<ContactProperty>> => {
  const { items, hasMore } = await queryPage(
    deps,
    { pk: keys.contactProperty.partition(teamId), prefix: keys.contactProperty.prefix },
    page,
  );
  return { items: items.map(contactPropertyFromItem), hasMore };
};
