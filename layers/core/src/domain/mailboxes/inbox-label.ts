import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, type Write } from '../../table/ops.ts';
import { ApiError, notFound } from '../../errors/api-error.ts';
import type { Mailbox } from './mailbox.ts';

/**
 * The labels of an inbox (the SDK's `inboxes.labels` and `threads.labels`): `LABEL#` rows of the
 * mailbox, each name unique in it (a `LABELNAME#` guard written with the row). A thread keeps
 * its labels' ids. A removed label is gone from every thread at once without touching them: a
 * thread shows only the ids that still name a label, and forgets the others on its next change.
 */

/** Labels an inbox holds at most. */
export const MAX_INBOX_LABELS = 100;

/** Labels a thread carries at most. */
export const MAX_THREAD_LABELS = 20;

/** A label's color when none is given. */
export const DEFAULT_COLOR = '#6B7280';

export interface InboxLabel {
  readonly id: string;
  readonly name: string;
  readonly color: string;
  readonly createdAt: string;
}

export const labelFromItem = (i: Record<string, any>): InboxLabel => ({
  id: i.id,
  name: i.name,
  color: i.color,
  createdAt: i.created_at,
});

export const loadLabel = async (deps: Deps, m: Mailbox, labelId: string): Promise<InboxLabel> => {
  const item = await getItem(deps, keys.mailbox.label(m.teamId, m.id, labelId));
  if (!item) throw notFound('Label');
  return labelFromItem(item);
};

export const nameTaken = (m: Mailbox, name: string) =>
  new ApiError(
    'conflict',
    `${m.address} already has a label named "${name}" (names are unique per inbox, in any case).`,
  );

export const guard = (m: Mailbox, name: string, labelId: string): Write => ({
  put: { ...keys.mailbox.labelName(m.teamId, m.id, name), type: 'inbox_label_name', label_id: labelId },
  when: { exists: false },
});

/** A label as the SDK shows it. */
export const inboxLabelView = (l: InboxLabel) => ({ id: l.id, name: l.name, color: l.color, created_at: l.createdAt });
