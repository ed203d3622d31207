import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryPage } from '../../table/query-page.ts';
import { MAILBOX_LIST_LIMIT } from '../../limits.ts';
import { draftFromItem, type MailboxDraft } from './drafts.ts';

/** The drafts of a mailbox waiting for their owner's approval, newest first. */
export const listAwaitingApproval = async (deps: Deps, teamId: string, mailboxId: string): Promise<MailboxDraft[]> => {
  const { items } = await queryPage(
    deps,
    {
      pk: keys.mailbox.threadPartition(teamId, mailboxId),
      prefix: keys.mailbox.draftPrefix,
      filter: { attr: 'status', eq: 'awaiting_approval' },
    },
    { limit: MAILBOX_LIST_LIMIT },
  );
  return items.map(draftFromItem);
};
