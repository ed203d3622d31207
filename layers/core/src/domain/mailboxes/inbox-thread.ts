import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { batchGetItems, getItem, queryAll, queryPages, type Condition } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';
import type { Page } from '../paging.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Mailbox, MailboxFolder } from './mailbox.ts';
import type { MailboxMessage } from './message.ts';
import { UNTRUSTED_NOTICE } from './agent-items.ts';

/**
 * The SDK's `inboxes.threads` over the mailbox store: a thread is the existing threading's row
 * (folder, read state, labels, counts, its latest message's people), listed per folder newest
 * activity first from the folder's thread index; its emails are the received and sent messages
 * of the thread.
 */

/** The folders a thread list reads when the caller names none: everything but spam and trash. */
const DEFAULT_FOLDERS: readonly MailboxFolder[] = ['inbox', 'archive', 'sent'];

/** A thread row as the SDK's thread list reads it. */
type ThreadItem = Record<string, any>;

/** A label as threads show it. */
interface LabelRef {
  readonly id: string;
  readonly name: string;
  readonly color: string;
}

/** The labels of a mailbox by id (few per mailbox: read whole, only when a thread names one). */
export const labelsOf = async (
  deps: Deps,
  m: Mailbox,
  threads: readonly ThreadItem[],
): Promise<Map<string, LabelRef>> => {
  if (!threads.some((t) => (t.labels ?? []).length > 0)) return new Map();
  const rows = await queryAll(deps, {
    pk: keys.mailbox.threadPartition(m.teamId, m.id),
    prefix: keys.mailbox.labelPrefix,
  });
  return new Map(rows.map((r) => [r.id as string, { id: r.id, name: r.name, color: r.color }]));
};

const labelList = (t: ThreadItem, labels: Map<string, LabelRef>): LabelRef[] =>
  ((t.labels ?? []) as string[]).flatMap((id) => {
    const label = labels.get(id);
    return label ? [label] : [];
  });

/** A thread as the SDK's list shows it (`InboxThread`). */
export const threadRow = (t: ThreadItem, labels: Map<string, LabelRef>) => ({
  id: t.id as string,
  subject: (t.subject as string | undefined) || null,
  from: (t.last_from as string | undefined) ?? null,
  to: (t.last_to as string[] | undefined) ?? [],
  cc: (t.last_cc as string[] | undefined) ?? [],
  bcc: (t.last_bcc as string[] | undefined) ?? [],
  labels: labelList(t, labels),
  email_count: Number(t.message_count ?? 0),
  has_attachment: t.has_attachment === true,
  // Reply drafts not sent, counted on the thread as they are saved, sent and removed.
  has_draft: Number(t.draft_count ?? 0) > 0,
  read: t.read === true,
  received_at: t.last_message_at as string,
  folder: t.folder as MailboxFolder,
});

/** A thread as one thread's routes answer it (`InboxThreadSummary`). */
export const threadSummary = (t: ThreadItem, labels: Map<string, LabelRef>) => ({
  object: 'inbox_thread' as const,
  id: t.id as string,
  subject: (t.subject as string | undefined) || null,
  folder: t.folder as MailboxFolder,
  labels: labelList(t, labels),
  read: t.read === true,
});

/** A thread list's filters. */
export interface ThreadFilters {
  readonly folders?: readonly MailboxFolder[] | undefined;
  readonly labels?: readonly string[] | undefined;
  readonly read?: boolean | undefined;
}

/** A search's conditions on thread rows beyond the list's filters, and its window of latest-activity times. */
export interface RowSearch {
  readonly terms: readonly Condition[];
  /** ISO times, both included. */
  readonly window?: { readonly from?: string | undefined; readonly to?: string | undefined };
  /** Thread rows a search reads per folder at most. */
  readonly scanRows: number;
}

/**
 * Up to `want` threads of one folder matching the filters, newest activity first, strictly past
 * `cursor` (a listing sort key) in the direction read. A filter reads on past the threads it
 * leaves out: its cost is the threads passed over, not the page; a search stops after
 * `scanRows` rows (`exhausted: false`). Not a `Page`: one folder's share of a page, merged by
 * `pageThreads`, and `exhausted` says whether the scan saw the whole folder, not whether more follow.
 */
const folderThreads = async (
  deps: Deps,
  m: Mailbox,
  folder: MailboxFolder,
  filters: ThreadFilters,
  want: number,
  cursor: { after?: string; before?: string },
  search?: RowSearch,
): Promise<{ rows: ThreadItem[]; exhausted: boolean }> => {
  const terms: Condition[] = [
    ...(filters.read === undefined ? [] : [{ attr: 'read', eq: filters.read }]),
    ...(filters.labels ?? []).map((id) => ({ attr: 'labels', contains: id })),
    ...(search?.terms ?? []),
  ];
  // The sort key is `<latest activity ISO>#<thread id>`: a cursor and a time window are key bounds.
  const low =
    [cursor.before, search?.window?.from]
      .filter((x): x is string => !!x)
      .sort()
      .pop() ?? ' ';
  const highs = [cursor.after, search?.window?.to ? `${search.window.to}\uffff` : undefined].filter(
    (x): x is string => !!x,
  );
  const high = highs.sort()[0] ?? '\uffff';
  if (low > high) return { rows: [], exhausted: true };
  const out: ThreadItem[] = [];
  let scanned = 0;
  let exhausted = true;
  const pageSize = search ? Math.min(search.scanRows, 200) : want + 1;
  for await (const page of queryPages(deps, {
    ...keys.mailbox.threadListPartition(m.teamId, m.id, folder),
    between: [low, high],
    ...(terms.length ? { filter: terms.length === 1 ? terms[0]! : { and: terms } } : {}),
    descending: cursor.before === undefined,
    pageSize,
  })) {
    out.push(...page.items.filter((t) => t.gsi1sk !== cursor.before && t.gsi1sk !== cursor.after));
    scanned += pageSize;
    if (out.length >= want) break;
    if (search && scanned >= search.scanRows && page.next) {
      exhausted = false;
      break;
    }
  }
  return { rows: out.slice(0, want), exhausted };
};

/**
 * A page of an inbox's threads (their stored rows), newest activity first, over the named folders
 * (each folder's index read newest first, then merged): at most `folders × (limit + 1)` rows per
 * page without a filter. A cursor is a thread id; a thread that moved since (a new message,
 * another folder) is found at its new place, and an unknown cursor gives an empty page, as every
 * list does.
 */
export const pageThreads = async (
  deps: Deps,
  m: Mailbox,
  filters: ThreadFilters,
  page: Pagination,
  search?: RowSearch,
): Promise<Page<ThreadItem>> => {
  const cursorId = page.after ?? page.before;
  let cursor: { after?: string; before?: string } = {};
  if (cursorId) {
    const at = await getItem(deps, keys.mailbox.thread(m.teamId, m.id, cursorId));
    if (!at) return { items: [], hasMore: false };
    cursor = page.after ? { after: at.gsi1sk } : { before: at.gsi1sk };
  }
  const folders = filters.folders?.length ? [...new Set(filters.folders)] : DEFAULT_FOLDERS;
  const found = await Promise.all(
    folders.map((f) => folderThreads(deps, m, f, filters, page.limit + 1, cursor, search)),
  );
  const newestFirst = found.flatMap((f) => f.rows).sort((a, b) => (a.gsi1sk < b.gsi1sk ? 1 : -1));
  const hasMore = newestFirst.length > page.limit || found.some((f) => !f.exhausted);
  // Read newer than a `before` cursor: the page is the threads just above it.
  const slice = cursor.before
    ? newestFirst.slice(Math.max(0, newestFirst.length - page.limit))
    : newestFirst.slice(0, page.limit);
  return { items: slice, hasMore };
};

/** Threads as the API lists them, their labels' names and colors read once for all. */
export const threadRows = async (
  deps: Deps,
  m: Mailbox,
  threads: readonly ThreadItem[],
): Promise<ReturnType<typeof threadRow>[]> => {
  const labels = await labelsOf(deps, m, threads);
  return threads.map((t) => threadRow(t, labels));
};

export const loadThread = async (deps: Deps, m: Mailbox, threadId: string): Promise<ThreadItem> => {
  const item = await getItem(deps, keys.mailbox.thread(m.teamId, m.id, threadId));
  if (!item) throw notFound('Thread');
  return item;
};

/** The folders a thread can be moved to (the SDK's MOVE_THREAD_FOLDERS): a thread never moves into sent. */
export const MOVE_FOLDERS = ['inbox', 'archive', 'spam', 'trash'] as const;

/**
 * The message rows of a thread, oldest first, for display (list, search): read through the
 * thread index (gsi3), eventually consistent on AWS, so a message of the last moment may be
 * missing. What acts on the messages reads `everyThreadItem`.
 */
export const threadItems = (deps: Deps, m: Mailbox, threadId: string) =>
  queryAll(deps, {
    ...keys.message.threadPartition(m.teamId, threadId),
    filter: { attr: 'mailbox_id', eq: m.id },
  });

/**
 * Every message row of a thread, oldest first, read consistently from the base table: the
 * thread's item collection (one entry per message, written with it), then the rows themselves.
 * What acts on all of a thread's messages (remove, move) reads this, so the message that
 * arrived a moment ago is never left behind.
 */
export const everyThreadItem = async (deps: Deps, m: Mailbox, threadId: string) => {
  const entries = await queryAll(deps, {
    pk: keys.mailbox.threadMessagePartition(m.teamId, m.id, threadId),
    prefix: keys.mailbox.threadMessagePrefix,
    consistent: true,
  });
  const rows = await batchGetItems(
    deps,
    entries.map((e) => keys.message.item(m.teamId, e.message_id)),
  );
  return rows.filter((r) => r.mailbox_id === m.id).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
};

/** A message as the SDK reads it (`InboxMessage`), marked as the agent API marks untrusted content. */
export const emailView = (msg: MailboxMessage, threadRead: boolean) => {
  const inbound = msg.direction === 'inbound';
  return {
    object: 'inbox_email' as const,
    id: msg.id,
    thread_id: msg.threadId,
    direction: msg.direction,
    from: msg.from,
    to: [...msg.to],
    cc: [...msg.cc],
    bcc: [...msg.bcc],
    reply_to: [...msg.replyTo],
    subject: msg.subject || null,
    message_id: msg.messageId ?? null,
    html: msg.html,
    text: msg.text,
    attachments: msg.attachments.map((a) => ({ id: a.id, filename: a.filename, size: a.size })),
    read: threadRead || msg.read,
    received_at: msg.createdAt,
    untrusted: inbound,
    trust: inbound ? ('untrusted' as const) : ('mailbox' as const),
    notice: inbound ? UNTRUSTED_NOTICE : 'Sent from this mailbox.',
  };
};
