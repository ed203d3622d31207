import { guard, nameTaken, labelFromItem, type InboxLabel, DEFAULT_COLOR, MAX_INBOX_LABELS } from './inbox-label.ts';
import { listInboxLabels } from './list-inbox-labels.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { transact } from '../../table/ops.ts';
import { validationError } from '../../errors/api-error.ts';
import type { Mailbox } from './mailbox.ts';

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
