import { threadRows, pageThreads, type ThreadFilters, type threadRow } from './inbox-thread.ts';
import type { Deps } from '../../runtime/deps.ts';
import type { Page } from '../paging.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Mailbox } from './mailbox.ts';

/** A page of an inbox's threads as the API lists them (see `pageThreads`). */
export const listInboxThreads = async (
  deps: Deps,
  m: Mailbox,
  filters: ThreadFilters,
  page: Pagination,
): Promise<Page<ReturnType<typeof threadRow>>> => {
  const { items, hasMore } = await pageThreads(deps, m, filters, page);
  return { items: await threadRows(deps, m, items), hasMore };
};
