import { emailView, threadItems, loadThread } from './inbox-thread.ts';
import type { Deps } from '../../runtime/deps.ts';
import { pageOf, type Page } from '../paging.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Mailbox } from './mailbox.ts';
import { messageFromItem, withBodies } from './message.ts';
import { bodiesWithinAnswer } from '../answer-bodies.ts';

/** A page of a thread's emails, oldest first (a thread is read whole, then paged). */
export const listThreadEmails = async (
  deps: Deps,
  m: Mailbox,
  threadId: string,
  page: Pagination,
): Promise<Page<ReturnType<typeof emailView>>> => {
  const t = await loadThread(deps, m, threadId);
  const { items, hasMore } = pageOf((await threadItems(deps, m, threadId)).map(messageFromItem), page);
  // A thread's bodies together can pass what one answer carries: the later ones then read null.
  const full = bodiesWithinAnswer(await Promise.all(items.map((msg) => withBodies(deps, msg))));
  return { items: full.map((msg) => emailView(msg, t.read === true)), hasMore };
};
