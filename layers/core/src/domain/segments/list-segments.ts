import { segmentFromItem, type Segment } from './segment.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryPage } from '../../table/query-page.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Page } from '../paging.ts';

/** A page of the team's segments. */
export const listSegments = async (deps: Deps, teamId: string, page: Pagination): Promise<Page<Segment>> => {
  const { items, hasMore } = await queryPage(
    deps,
    { pk: keys.segment.partition(teamId), prefix: keys.segment.prefix },
    page,
  );
  return { items: items.map(segmentFromItem), hasMore };
};
