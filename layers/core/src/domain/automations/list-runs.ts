import { runFromItem, type Run } from './run.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryPage } from '../../table/query-page.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Page } from '../paging.ts';
import type { RunStatus } from './vocabulary.ts';

/** A page of an automation's runs, newest first, optionally of some statuses. */
export const listRuns = async (
  deps: Deps,
  teamId: string,
  automationId: string,
  page: Pagination,
  statuses: readonly RunStatus[] | undefined,
): Promise<Page<Run>> => {
  const { items, hasMore } = await queryPage(
    deps,
    {
      pk: keys.automation.runPartition(teamId, automationId),
      prefix: keys.automation.runPrefix,
      ...(statuses?.length ? { filter: { attr: 'status', in: statuses } } : {}),
    },
    page,
  );
  return { items: items.map(runFromItem), hasMore };
};
