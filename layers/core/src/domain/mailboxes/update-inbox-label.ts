import { guard } from './inbox-label.ts';
import { nameTaken } from './inbox-label.ts';
import { loadLabel } from './inbox-label.ts';
import type { InboxLabel } from './inbox-label.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { transact, type Write } from '../../table/ops.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { Mailbox } from './mailbox.ts';

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
