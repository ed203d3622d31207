import { eventDefinitionFromItem, type EventDefinition } from './event-definition.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryPage } from '../../table/query-page.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Page } from '../paging.ts';

/** A page of the team's event definitions, newest first. */
export const listEventDefinitions = async (
  deps: Deps,
  teamId: string,
  page: Pagination,
): Promise<Page<EventDefinition>> => {
  const { items, hasMore } = await queryPage(
    deps,
    { pk: keys.eventDefinition.partition(teamId), prefix: keys.eventDefinition.prefix },
    page,
  );
  return { items: items.map(eventDefinitionFromItem), hasMore };
};
