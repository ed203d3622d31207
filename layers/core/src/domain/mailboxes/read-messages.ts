import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, queryAll } from '../../table/ops.ts';
import { queryPage } from '../../table/query-page.ts';
import { notFound } from '../../errors/api-error.ts';
import type { Page, PageRequest } from '../paging.ts';
import type { MailboxFolder } from './mailbox.ts';
import { messageFromItem, type MailboxMessage } from './message.ts';

/**
 * A page of the team's received messages, newest first: of every mailbox, or only of `within`
 * (a caller restricted to some mailboxes; none reads nothing).
 */
export const listReceivedMessages = async (
  deps: Deps,
  teamId: string,
  page: PageRequest,
  within?: readonly string[],
): Promise<Page<MailboxMessage>> => {
  if (within && within.length === 0) return { items: [], hasMore: false };
  const filter = within ? { attr: 'mailbox_id', in: [...within] } : undefined;
  const { items, hasMore } = await queryPage(
    deps,
    { ...keys.message.receivedPartition(teamId), prefix: '', ...(filter ? { filter } : {}) },
    page,
  );
  return { items: items.map(messageFromItem), hasMore };
};

/** A page of one folder of a mailbox, newest first. */
export const listFolder = async (
  deps: Deps,
  teamId: string,
  mailboxId: string,
  folder: MailboxFolder,
  page: PageRequest,
): Promise<Page<MailboxMessage>> => {
  const { items, hasMore } = await queryPage(
    deps,
    { ...keys.message.folderPartition(teamId, mailboxId, folder), prefix: '' },
    page,
  );
  return { items: items.map(messageFromItem), hasMore };
};

/** A thread of a mailbox: its summary row. */
export interface Thread {
  readonly id: string;
  readonly mailboxId: string;
  readonly subject: string;
  readonly folder: MailboxFolder;
  readonly labels: readonly string[];
  readonly read: boolean;
  readonly messageCount: number;
  readonly hasAttachment: boolean;
  readonly hasDraft: boolean;
  readonly createdAt: string;
  readonly lastMessageAt: string;
}

const threadFromItem = (i: Record<string, any>): Thread => ({
  id: i.id,
  mailboxId: i.mailbox_id,
  subject: i.subject ?? '',
  folder: i.folder,
  labels: i.labels ?? [],
  read: i.read === true,
  messageCount: Number(i.message_count ?? 0),
  hasAttachment: i.has_attachment === true,
  hasDraft: Number(i.draft_count ?? 0) > 0,
  createdAt: i.created_at,
  lastMessageAt: i.last_message_at,
});

/** A thread of a team's mailbox by id (404 for another team's or mailbox's). */
export const getThread = async (deps: Deps, teamId: string, mailboxId: string, threadId: string): Promise<Thread> => {
  const item = await getItem(deps, keys.mailbox.thread(teamId, mailboxId, threadId));
  if (!item) throw notFound('Thread');
  return threadFromItem(item);
};

/** The messages of a thread, oldest first. */
export const threadMessages = async (deps: Deps, teamId: string, threadId: string): Promise<MailboxMessage[]> =>
  (await queryAll(deps, { ...keys.message.threadPartition(teamId, threadId) })).map(messageFromItem);
