import { receivedEmailRow } from './received-email.ts';
import type { Deps } from '../../runtime/deps.ts';
import { listReceivedMessages } from './read-messages.ts';
import type { Page, PageRequest } from '../paging.ts';

/** A page of the team's received emails (only those of `within`'s mailboxes when given), newest first. */
export const listReceivedEmails = async (
  deps: Deps,
  teamId: string,
  page: PageRequest,
  within?: readonly string[],
): Promise<Page<ReturnType<typeof receivedEmailRow>>> => {
  const { items, hasMore } = await listReceivedMessages(deps, teamId, page, within);
  return { items: items.map(receivedEmailRow), hasMore };
};
