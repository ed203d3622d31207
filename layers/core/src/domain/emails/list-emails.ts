import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import type { Pagination } from '../../schemas/common.ts';
import { queryPage } from '../../table/query-page.ts';
import type { Page } from '../paging.ts';
import type { EmailItem } from './email.ts';
import { withBodyItems } from './email-content.ts';
import { bodiesWithinAnswer } from '../answer-bodies.ts';

/**
 * A page of the team's emails, newest first, merged from the listing shards; with `bodies`, the
 * bodies kept in body items are read in too (the API's list items carry them).
 */
export const listEmails = async (
  deps: Deps,
  teamId: string,
  page: Pagination,
  { bodies = false } = {},
): Promise<Page<EmailItem>> => {
  const shards = await Promise.all(
    Array.from({ length: keys.email.listShards }, (_, shard) =>
      queryPage(deps, { ...keys.email.listPartition(teamId, shard), prefix: '' }, page),
    ),
  );
  const merged = shards.flatMap((s) => s.items).sort((a, b) => (a.id < b.id ? 1 : -1));
  const window = page.before ? merged.slice(Math.max(0, merged.length - page.limit)) : merged.slice(0, page.limit);
  return {
    // 100 emails of 32 KiB bodies can pass what one answer carries: the later ones then read null.
    items: bodies ? bodiesWithinAnswer(await withBodyItems(deps, window as EmailItem[])) : (window as EmailItem[]),
    hasMore: merged.length > page.limit || shards.some((s) => s.hasMore),
  };
};
