import { logOf, type RequestLog } from './request-log.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryPage } from '../../table/query-page.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Page } from '../paging.ts';

/** A page of the team's request logs, newest first, merged from the shards (one query each, side by side). */
export const listRequestLogs = async (deps: Deps, teamId: string, page: Pagination): Promise<Page<RequestLog>> => {
  const shards = await Promise.all(
    Array.from({ length: keys.requestLog.shards }, (_, shard) =>
      queryPage(
        deps,
        {
          pk: keys.requestLog.partition(teamId, shard),
          prefix: keys.requestLog.prefix,
          // TTL deletes within days of expiry; an expired row is no longer listed meanwhile.
          filter: { attr: 'ttl', gt: Math.floor(deps.clock.now() / 1000) - 1 },
        },
        page,
      ),
    ),
  );
  const merged = shards.flatMap((s) => s.items).sort((a, b) => (String(a.sk) < String(b.sk) ? 1 : -1));
  const window = page.before ? merged.slice(Math.max(0, merged.length - page.limit)) : merged.slice(0, page.limit);
  return { items: window.map(logOf), hasMore: merged.length > page.limit || shards.some((s) => s.hasMore) };
};
