import type { Deps } from '../../runtime/deps.ts';
import { pageOf, type Page } from '../paging.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Mailbox } from './mailbox.ts';
import { listMailboxes } from './list-mailboxes.ts';

/** A page of the team's inboxes, newest first (a team has few: read whole, then paged). */
export const listInboxes = async (
  deps: Deps,
  teamId: string,
  page: Pagination,
  within?: readonly string[],
): Promise<Page<Mailbox>> => {
  const all = (await listMailboxes(deps, teamId)).filter((m) => !within || within.includes(m.id)).reverse();
  return pageOf(all, page);
};
