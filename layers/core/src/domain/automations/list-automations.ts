import { automationFromItem, type Automation } from './automation.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryPage } from '../../table/query-page.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Page } from '../paging.ts';
import type { AutomationStatus } from './vocabulary.ts';

/** A page of the team's automations, newest first, optionally of one status. */
export const listAutomations = async (
  deps: Deps,
  teamId: string,
  page: Pagination,
  status: AutomationStatus | undefined,
): Promise<Page<Automation>> => {
  const { items, hasMore } = await queryPage(
    deps,
    {
      pk: keys.automation.partition(teamId),
      prefix: keys.automation.prefix,
      ...(status ? { filter: { attr: 'status', eq: status } } : {}),
    },
    page,
  );
  return { items: items.map(automationFromItem), hasMore };
};
