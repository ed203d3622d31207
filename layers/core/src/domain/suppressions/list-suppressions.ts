import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryPage } from '../../table/query-page.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Page } from '../paging.ts';
import { suppressionFromItem, type Suppression } from './suppression-store.ts';

/** A page of the list, newest first, optionally of one origin. */
export const listSuppressions = async (
  deps: Deps,
  teamId: string,
  page: Pagination,
  origin?: string,
): Promise<Page<Suppression>> => {
  const { items, hasMore } = await queryPage(
    deps,
    {
      ...keys.suppression.listPartition(teamId),
      prefix: '',
      ...(origin ? { filter: { attr: 'origin', eq: origin } } : {}),
    },
    page,
  );
  return { items: items.map(suppressionFromItem), hasMore };
};
