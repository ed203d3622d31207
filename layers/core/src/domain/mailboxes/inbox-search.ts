import type { Deps } from '../../runtime/deps.ts';
import type { Condition } from '../../table/ops.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Page } from '../paging.ts';
import type { Mailbox } from './mailbox.ts';
import { messageFromItem, type MailboxMessage } from './message.ts';
import { pageThreads, threadItems, threadRows, type ThreadFilters } from './inbox-thread.ts';

/** What a thread search looks for (the SDK's `threads.search`), beside a list's filters. */
export interface ThreadSearch {
  /** Words that must all appear in the subject, a message's text (its start), or a participant. */
  readonly query?: string | undefined;
  readonly from?: readonly string[] | undefined;
  /** `to`, `cc` and `bcc` all match a thread's recipients. */
  readonly to?: readonly string[] | undefined;
  readonly cc?: readonly string[] | undefined;
  readonly bcc?: readonly string[] | undefined;
  readonly hasAttachment?: boolean | undefined;
  readonly startDate?: string | undefined;
  readonly endDate?: string | undefined;
}

/** Thread rows a search reads per folder and request at most (bounded: see searchInboxThreads). */
const SEARCH_SCAN_ROWS = 2000;

const words = (q: string | undefined): string[] =>
  [...new Set((q ?? '').toLowerCase().split(/\s+/).filter(Boolean))].slice(0, 10);

const anyOf = (attr: string, values: readonly string[] | undefined): Condition[] =>
  values?.length ? [{ or: values.map((v) => ({ attr, contains: v.trim().toLowerCase() })) }] : [];

/** Whether a message holds every word (subject, text, people). */
const messageMatches = (msg: MailboxMessage, terms: readonly string[]): boolean => {
  const hay = [msg.subject, msg.text ?? '', msg.from, ...msg.to, ...msg.cc, ...msg.bcc].join(' ').toLowerCase();
  return terms.every((w) => hay.includes(w));
};

/**
 * Searches an inbox's threads: the list's filters, a window of latest activity (`startDate`,
 * `endDate`: bounds of the folder index's sort key, so a window costs nothing), and words and
 * people matched against each thread row's digest (thread-digest.ts), never by opening the
 * messages. It reads each named folder's threads newest first and stops after SEARCH_SCAN_ROWS
 * rows per folder: past that, `has_more` is true and a narrower window finds older threads. Cost
 * per request: at most folders × SEARCH_SCAN_ROWS thread rows read, plus each thread of the page
 * opened once to name its newest matching email (`matched_email_id`).
 */
export const searchInboxThreads = async (
  deps: Deps,
  m: Mailbox,
  filters: ThreadFilters,
  search: ThreadSearch,
  page: Pagination,
): Promise<Page<Awaited<ReturnType<typeof threadRows>>[number] & { matched_email_id: string | null }>> => {
  const terms = words(search.query);
  const conditions: Condition[] = [
    ...terms.map(
      (w): Condition => ({
        or: [
          { attr: 'search_text', contains: w },
          { attr: 'search_from', contains: w },
          { attr: 'search_to', contains: w },
        ],
      }),
    ),
    ...anyOf('search_from', search.from),
    ...anyOf('search_to', [...(search.to ?? []), ...(search.cc ?? []), ...(search.bcc ?? [])]),
    ...(search.hasAttachment === undefined ? [] : [{ attr: 'has_attachment', eq: search.hasAttachment }]),
  ];
  const { items, hasMore } = await pageThreads(deps, m, filters, page, {
    terms: conditions,
    window: { from: search.startDate, to: search.endDate },
    scanRows: SEARCH_SCAN_ROWS,
  });
  const matched = await Promise.all(
    items.map(async (t) => {
      if (terms.length === 0) return null;
      const messages = (await threadItems(deps, m, t.id)).map(messageFromItem);
      return [...messages].reverse().find((msg) => messageMatches(msg, terms))?.id ?? null;
    }),
  );
  const rows = await threadRows(deps, m, items);
  return { items: rows.map((r, i) => ({ ...r, matched_email_id: matched[i] ?? null })), hasMore };
};
