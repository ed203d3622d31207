import { MAX_THREAD_LABELS } from './inbox-label.ts';
import { listInboxLabels } from './list-inbox-labels.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, transact } from '../../table/ops.ts';
import { ApiError, notFound, validationError } from '../../errors/api-error.ts';
import type { Mailbox } from './mailbox.ts';
import { eventItem, publishEvents } from '../events/record-event.ts';

/**
 * Changes a thread's labels: `add` puts more on, `set` replaces them, `remove` takes one off.
 * Every label named must be one of the inbox's (404 otherwise); a thread carries at most
 * MAX_THREAD_LABELS. The write is conditioned on the labels read, so two changes at once never
 * lose one (the second answers 409). Answers the thread's labels.
 */
export const changeThreadLabels = async (
  deps: Deps,
  m: Mailbox,
  threadId: string,
  change: { add?: readonly string[]; set?: readonly string[]; remove?: string },
): Promise<{ id: string; name: string; color: string }[]> => {
  const threadKey = keys.mailbox.thread(m.teamId, m.id, threadId);
  const [thread, labels] = await Promise.all([getItem(deps, threadKey), listInboxLabels(deps, m)]);
  if (!thread) throw notFound('Thread');
  const known = new Map(labels.map((l) => [l.id, l]));
  for (const id of [...(change.add ?? []), ...(change.set ?? []), ...(change.remove ? [change.remove] : [])])
    if (!known.has(id)) throw new ApiError('not_found', `Label ${id} not found in ${m.address}.`);
  const before = ((thread.labels ?? []) as string[]).filter((id) => known.has(id));
  const after = [
    ...new Set(change.set ?? (change.add ? [...before, ...change.add] : before.filter((id) => id !== change.remove))),
  ];
  if (after.length > MAX_THREAD_LABELS)
    throw validationError(
      `A thread carries at most ${MAX_THREAD_LABELS} labels; this change would give it ${after.length}.`,
    );
  const ref = (id: string) => {
    const l = known.get(id)!;
    return { id: l.id, name: l.name, color: l.color };
  };
  const added = after.filter((id) => !before.includes(id));
  const removed = before.filter((id) => !after.includes(id));
  const changed =
    added.length || removed.length
      ? eventItem(deps, m.teamId, 'inbox.thread.labels.updated', {
          source: 'api',
          inbox_id: m.id,
          thread_id: threadId,
          added: added.map(ref),
          removed: removed.map(ref),
        })
      : undefined;
  const written = await transact(deps, [
    { update: threadKey, change: { set: { labels: after } }, when: { attr: 'labels', eq: thread.labels ?? [] } },
    ...(changed ? [{ put: changed.item }] : []),
  ]);
  if (!written.ok)
    throw new ApiError('conflict', `The thread ${threadId}'s labels changed meanwhile; read it again and retry.`);
  if (changed) await publishEvents(deps, [changed.record]);
  return after.map(ref);
};
