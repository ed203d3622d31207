import { inboxDraftRow } from './inbox-draft.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryPage } from '../../table/query-page.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Page } from '../paging.ts';
import type { Mailbox } from './mailbox.ts';
import { draftFromItem } from './drafts.ts';

/** A page of an inbox's drafts not sent yet, newest first. */
export const listInboxDrafts = async (
  deps: Deps,
  m: Mailbox,
  page: Pagination,
): Promise<Page<ReturnType<typeof inboxDraftRow>>> => {
  const { items, hasMore } = await queryPage(
    deps,
    {
      pk: keys.mailbox.threadPartition(m.teamId, m.id),
      prefix: keys.mailbox.draftPrefix,
      filter: { attr: 'status', ne: 'sent' },
    },
    page,
  );
  return { items: items.map(draftFromItem).map(inboxDraftRow), hasMore };
};
