import { loadThread, threadSummary, labelsOf } from './inbox-thread.ts';
import type { Deps } from '../../runtime/deps.ts';
import type { Mailbox } from './mailbox.ts';

/** One thread of the inbox (404 for another inbox's or team's). */
export const getInboxThread = async (deps: Deps, m: Mailbox, threadId: string) => {
  const t = await loadThread(deps, m, threadId);
  return threadSummary(t, await labelsOf(deps, m, [t]));
};
