import { topicFromItem, type Topic } from './topic.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryPage } from '../../table/query-page.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Page } from '../paging.ts';

/** A page of the team's topics. */
export const listTopics = async (deps: Deps, teamId: string, page: Pagination): Promise<Page<Topic>> => {
  const { items, hasMore } = await queryPage(
    deps,
    { pk: keys.topic.partition(teamId), prefix: keys.topic.prefix },
    page,
  );
  return { items: items.map(topicFromItem), hasMore };
};
