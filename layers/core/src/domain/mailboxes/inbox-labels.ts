import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, queryAll, transact, type Write } from '../../table/ops.ts';
import { ApiError, notFound, validationError } from '../../errors/api-error.ts';
import type { Mailbox } from './mailbox.ts';
import { eventItem, publishEvents } from '../events/record-event.ts';

/**
 * The labels of an inbox (the SDK's `inboxes.labels` and `threads.labels`): `LABEL#` rows of the
 * mailbox, each name unique in it (a `LABELNAME#` guard written with the row). A thread keeps
 * its labels' ids. A removed label is gone from every thread at once without touching them: a
 * thread shows only the ids that still name a label, and forgets the others on its next change.
 */

/** Labels an inbox holds at most. */
const MAX_INBOX_LABELS = 100;
/** Labels a thread carries at most. */
const MAX_THREAD_LABELS = 20;
/** A label's color when none is given. */
const DEFAULT_COLOR = '#6B7280';

export interface InboxLabel {
  readonly id: string;
  readonly name: string;
  readonly color: string;
  readonly createdAt: string;
}

const labelFromItem = (i: Record<string, any>): InboxLabel => ({
  id: i.id,
  name: i.name,
  color: i.color,
  createdAt: i.created_at,
});

/** An inbox's labels, oldest first (few: read whole). */
export const listInboxLabels = async (deps: Deps, m: Mailbox): Promise<InboxLabel[]> =>
  (await queryAll(deps, { pk: keys.mailbox.threadPartition(m.teamId, m.id), prefix: keys.mailbox.labelPrefix })).map(
    labelFromItem,
  );

const loadLabel = async (deps: Deps, m: Mailbox, labelId: string): Promise<InboxLabel> => {
  const item = await getItem(deps, keys.mailbox.label(m.teamId, m.id, labelId));
  if (!item) throw notFound('Label');
  return labelFromItem(item);
};

const nameTaken = (m: Mailbox, name: string) =>
  new ApiError(
    'conflict',
    `${m.address} already has a label named "${name}" (names are unique per inbox, in any case).`,
  );

const guard = (m: Mailbox, name: string, labelId: string): Write => ({
  put: { ...keys.mailbox.labelName(m.teamId, m.id, name), type: 'inbox_label_name', label_id: labelId },
  when: { exists: false },
});

/** Creates a label (409 for a name the inbox has, 422 past MAX_INBOX_LABELS). */
export const createInboxLabel = async (
  deps: Deps,
  m: Mailbox,
  input: { name: string; color?: string | undefined },
): Promise<InboxLabel> => {
  if ((await listInboxLabels(deps, m)).length >= MAX_INBOX_LABELS)
    throw validationError(`An inbox has at most ${MAX_INBOX_LABELS} labels; remove one first.`);
  const id = deps.ids.next();
  const now = new Date(deps.clock.now()).toISOString();
  const item = {
    ...keys.mailbox.label(m.teamId, m.id, id),
    type: 'inbox_label',
    id,
    name: input.name,
    color: input.color ?? DEFAULT_COLOR,
    created_at: now,
    updated_at: now,
  };
  const written = await transact(deps, [{ put: item, when: { exists: false } }, guard(m, input.name, id)]);
  if (!written.ok) throw nameTaken(m, input.name);
  return labelFromItem(item);
};

/** Renames or recolors a label (409 for a name another label has). */
export const updateInboxLabel = async (
  deps: Deps,
  m: Mailbox,
  labelId: string,
  change: { name?: string | undefined; color?: string | undefined },
): Promise<InboxLabel> => {
  const label = await loadLabel(deps, m, labelId);
  const name = change.name ?? label.name;
  const renamed = name.toLowerCase() !== label.name.toLowerCase();
  const written = await transact(deps, [
    {
      update: keys.mailbox.label(m.teamId, m.id, labelId),
      change: {
        set: { name, color: change.color ?? label.color, updated_at: new Date(deps.clock.now()).toISOString() },
      },
      when: { attr: 'name', eq: label.name },
    },
    ...(renamed
      ? [
          guard(m, name, labelId),
          {
            delete: keys.mailbox.labelName(m.teamId, m.id, label.name),
            when: { attr: 'label_id', eq: labelId },
          } as Write,
        ]
      : []),
  ]);
  if (!written.ok) {
    if (written.failed === 1) throw nameTaken(m, name);
    throw new ApiError('conflict', `The label ${labelId} changed meanwhile; read it again and retry.`);
  }
  return { ...label, name, color: change.color ?? label.color };
};

/** Removes a label (and its name): threads stop showing it at once. */
export const removeInboxLabel = async (deps: Deps, m: Mailbox, labelId: string): Promise<void> => {
  const label = await loadLabel(deps, m, labelId);
  const written = await transact(deps, [
    { delete: keys.mailbox.label(m.teamId, m.id, labelId), when: { exists: true } },
    { delete: keys.mailbox.labelName(m.teamId, m.id, label.name), when: { attr: 'label_id', eq: labelId } },
  ]);
  if (!written.ok) throw notFound('Label');
};

/** A label as the SDK shows it. */
export const inboxLabelView = (l: InboxLabel) => ({ id: l.id, name: l.name, color: l.color, created_at: l.createdAt });

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
