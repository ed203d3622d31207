import { emailView, loadThread } from './inbox-thread.ts';
import type { Deps } from '../../runtime/deps.ts';
import { notFound } from '../../errors/api-error.ts';
import type { Mailbox } from './mailbox.ts';
import { loadMessage, withBodies } from './message.ts';
import { bodyWithinAnswer } from '../answer-bodies.ts';

/** One email of a thread (404 for one of another thread, inbox or team). */
export const getThreadEmail = async (deps: Deps, m: Mailbox, threadId: string, emailId: string) => {
  const t = await loadThread(deps, m, threadId);
  const msg = await loadMessage(deps, m.teamId, emailId).catch(() => undefined);
  if (!msg || msg.mailboxId !== m.id || msg.threadId !== threadId) throw notFound('Email');
  return emailView(bodyWithinAnswer(await withBodies(deps, msg)), t.read === true);
};
