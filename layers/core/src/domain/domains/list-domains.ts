import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Page } from '../paging.ts';
import { queryPage } from '../../table/query-page.ts';
import { domainFromItem, type Domain } from './domain.ts';

/** A page of the team's domains, newest first. */
export const listDomains = async (deps: Deps, teamId: string, page: Pagination): Promise<Page<Domain>> => {
  const { items, hasMore } = await queryPage(
    deps,
    { pk: keys.domain.partition(teamId), prefix: keys.domain.prefix },
    page,
  );
  return { items: items.map(domainFromItem), hasMore };
};
