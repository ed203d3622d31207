import { loadLabel } from './inbox-label.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { transact } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';
import type { Mailbox } from './mailbox.ts';

/** Removes a label (and its name): threads stop showing it at once. */
export const removeInboxLabel = async (deps: Deps, m: Mailbox, labelId: string): Promise<void> => {
  const label = await loadLabel(deps, m, labelId);
  const written = await transact(deps, [
    { delete: keys.mailbox.label(m.teamId, m.id, labelId), when: { exists: true } },
    { delete: keys.mailbox.labelName(m.teamId, m.id, label.name), when: { attr: 'label_id', eq: labelId } },
  ]);
  if (!written.ok) throw notFound('Label');
};
