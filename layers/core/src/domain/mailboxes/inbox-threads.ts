import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import {
  batchWriteItems,
  getItem,
  queryAll,
  queryPages,
  transact,
  updateItem,
  type Condition,
  type Write,
} from '../../table/ops.ts';
import { ApiError, notFound } from '../../errors/api-error.ts';
import { pageOf, type Page } from '../paging.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Mailbox, MailboxFolder } from './mailbox.ts';
import { loadMessage, messageFromItem, messageIdHash, withBodies, type MailboxMessage } from './message.ts';
import { changeStorage } from './licenses.ts';
import { UNTRUSTED_NOTICE } from './agent-items.ts';
import { eventItem, publishEvents } from '../events/record-event.ts';

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
const labelsOf = async (deps: Deps, m: Mailbox, threads: readonly ThreadItem[]): Promise<Map<string, LabelRef>> => {
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
const threadRow = (t: ThreadItem, labels: Map<string, LabelRef>) => ({
  id: t.id as string,
  subject: (t.subject as string | undefined) || null,
  from: (t.last_from as string | undefined) ?? null,
  to: (t.last_to as string[] | undefined) ?? [],
  cc: (t.last_cc as string[] | undefined) ?? [],
  bcc: (t.last_bcc as string[] | undefined) ?? [],
  labels: labelList(t, labels),
  email_count: Number(t.message_count ?? 0),
  has_attachment: t.has_attachment === true,
  has_draft: t.has_draft === true,
  read: t.read === true,
  received_at: t.last_message_at as string,
  folder: t.folder as MailboxFolder,
});

/** A thread as one thread's routes answer it (`InboxThreadSummary`). */
const threadSummary = (t: ThreadItem, labels: Map<string, LabelRef>) => ({
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

const loadThread = async (deps: Deps, m: Mailbox, threadId: string): Promise<ThreadItem> => {
  const item = await getItem(deps, keys.mailbox.thread(m.teamId, m.id, threadId));
  if (!item) throw notFound('Thread');
  return item;
};

/** One thread of the inbox (404 for another inbox's or team's). */
export const getInboxThread = async (deps: Deps, m: Mailbox, threadId: string) => {
  const t = await loadThread(deps, m, threadId);
  return threadSummary(t, await labelsOf(deps, m, [t]));
};

/** The folders a thread can be moved to (the SDK's MOVE_THREAD_FOLDERS): a thread never moves into sent. */
export const MOVE_FOLDERS = ['inbox', 'archive', 'spam', 'trash'] as const;

/**
 * Marks a thread read or unread and/or moves it to another folder (its received messages move
 * with it; sent ones stay in sent). The inbox's unread count moves with the read state, in the
 * same write, conditioned on the state read (a concurrent change makes the caller retry: 409).
 */
export const updateInboxThread = async (
  deps: Deps,
  m: Mailbox,
  threadId: string,
  change: { read?: boolean | undefined; folder?: (typeof MOVE_FOLDERS)[number] | undefined },
) => {
  const t = await loadThread(deps, m, threadId);
  const wasRead = t.read === true;
  const read = change.read ?? wasRead;
  const folder = change.folder ?? (t.folder as MailboxFolder);
  const moves = folder !== t.folder;
  const unreadDelta = read === wasRead ? 0 : read ? -1 : 1;
  const moved = moves
    ? eventItem(deps, m.teamId, 'inbox.thread.folder.updated', {
        source: 'api',
        inbox_id: m.id,
        thread_id: threadId,
        from: t.folder,
        to: folder,
      })
    : undefined;
  const writes: Write[] = [
    ...(moved ? [{ put: moved.item }] : []),
    {
      update: keys.mailbox.thread(m.teamId, m.id, threadId),
      change: {
        set: {
          read,
          folder,
          ...(moves ? keys.mailbox.threadListing(m.teamId, m.id, folder, t.last_message_at, threadId) : {}),
        },
      },
      when: {
        and: [
          { attr: 'read', eq: wasRead },
          { attr: 'folder', eq: t.folder },
        ],
      },
    },
    ...(unreadDelta
      ? [
          {
            update: keys.mailbox.item(m.teamId, m.id),
            change: { add: { unread_count: unreadDelta } },
            when: { exists: true },
          } as Write,
        ]
      : []),
  ];
  const written = await transact(deps, writes);
  if (!written.ok)
    throw new ApiError(
      'conflict',
      `The thread ${threadId} changed meanwhile (read or moved); read it again and retry.`,
    );
  if (moved) await publishEvents(deps, [moved.record]);
  if (moves) {
    for (const msg of await threadItems(deps, m, threadId))
      if (msg.direction === 'inbound')
        await updateItem(deps, keys.message.item(m.teamId, msg.id), {
          set: { folder, ...keys.message.folderListing(m.teamId, m.id, folder, msg.id) },
        });
  }
  const after = { ...t, read, folder };
  return threadSummary(after, await labelsOf(deps, m, [after]));
};

/** The message rows of a thread, oldest first. */
export const threadItems = (deps: Deps, m: Mailbox, threadId: string) =>
  queryAll(deps, {
    ...keys.message.threadPartition(m.teamId, threadId),
    filter: { attr: 'mailbox_id', eq: m.id },
  });

/**
 * Deletes a thread and its messages for good: their rows, their raw MIME, their Message-ID
 * index rows; the storage they held is given back, and an unread thread counts one less. Drafts
 * made in the thread stay (they are the drafts' own).
 */
export const removeInboxThread = async (deps: Deps, m: Mailbox, threadId: string): Promise<void> => {
  const t = await loadThread(deps, m, threadId);
  const written = await transact(deps, [
    { delete: keys.mailbox.thread(m.teamId, m.id, threadId), when: { attr: 'read', eq: t.read === true } },
    ...(t.read === true
      ? []
      : [
          {
            update: keys.mailbox.item(m.teamId, m.id),
            change: { add: { unread_count: -1 } },
            when: { exists: true },
          } as Write,
        ]),
  ]);
  if (!written.ok) throw new ApiError('conflict', `The thread ${threadId} changed meanwhile; read it again and retry.`);
  const messages = await threadItems(deps, m, threadId);
  for (const msg of messages) if (msg.raw_key) await deps.content.delete(msg.raw_key);
  await batchWriteItems(deps, {
    delete: messages.flatMap((msg) => [
      keys.message.item(m.teamId, msg.id),
      ...(msg.message_id ? [keys.mailbox.messageId(m.teamId, m.id, messageIdHash(msg.message_id))] : []),
    ]),
  });
  const bytes = messages.reduce((n, msg) => n + (msg.direction === 'inbound' ? Number(msg.size ?? 0) : 0), 0);
  if (bytes) await changeStorage(deps, m.teamId, -bytes);
};

/** A message as the SDK reads it (`InboxMessage`), marked as the agent API marks untrusted content. */
const emailView = (msg: MailboxMessage, threadRead: boolean) => {
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

/** A page of a thread's emails, oldest first (a thread is read whole, then paged). */
export const listThreadEmails = async (
  deps: Deps,
  m: Mailbox,
  threadId: string,
  page: Pagination,
): Promise<Page<ReturnType<typeof emailView>>> => {
  const t = await loadThread(deps, m, threadId);
  const { items, hasMore } = pageOf((await threadItems(deps, m, threadId)).map(messageFromItem), page);
  const full = await Promise.all(items.map((msg) => withBodies(deps, msg)));
  return { items: full.map((msg) => emailView(msg, t.read === true)), hasMore };
};

/** One email of a thread (404 for one of another thread, inbox or team). */
export const getThreadEmail = async (deps: Deps, m: Mailbox, threadId: string, emailId: string) => {
  const t = await loadThread(deps, m, threadId);
  const msg = await loadMessage(deps, m.teamId, emailId).catch(() => undefined);
  if (!msg || msg.mailboxId !== m.id || msg.threadId !== threadId) throw notFound('Email');
  return emailView(await withBodies(deps, msg), t.read === true);
};
