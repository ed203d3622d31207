import { logOf, type RequestLog } from './request-log.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryPage } from '../../table/query-page.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Page } from '../paging.ts';

/** A page of the team's request logs, newest first. */
export const listRequestLogs = async (deps: Deps, teamId: string, page: Pagination): Promise<Page<RequestLog>> => {
  const { items, hasMore } = await queryPage(
    deps,
    {
      pk: keys.requestLog.partition(teamId),
      prefix: keys.requestLog.prefix,
      // TTL deletes within days of expiry; an expired row is no longer listed meanwhile.
      filter: { attr: 'ttl', gt: Math.floor(deps.clock.now() / 1000) - 1 },
    },
    page,
  );
  return { items: items.map(logOf), hasMore };
};
