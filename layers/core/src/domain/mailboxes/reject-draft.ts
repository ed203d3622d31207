import { decidable, type ApprovalDecision } from './approve-draft.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { updateItem } from '../../table/ops.ts';
import { ApiError } from '../../errors/api-error.ts';
import { recordActivity, type MailboxActor } from './activity.ts';

/** The owner rejects a draft waiting at a revision: it stays a draft; the agent may edit it and ask again. */
export const rejectDraft = async (deps: Deps, input: ApprovalDecision): Promise<void> => {
  const { mailbox, draft } = await decidable(deps, input);
  const who: MailboxActor = { actor: `user:${input.actorUserId}`, actorName: input.actorName, via: 'dashboard' };
  const changed = await updateItem(
    deps,
    keys.mailbox.draft(mailbox.teamId, mailbox.id, draft.id),
    { set: { status: 'rejected', rejected_at: new Date(deps.clock.now()).toISOString() } },
    {
      and: [
        { attr: 'revision', eq: draft.revision },
        { attr: 'status', eq: 'awaiting_approval' },
      ],
    },
  );
  if (!changed) throw new ApiError('conflict', `Draft ${draft.id} changed meanwhile; reload the panel.`);
  await recordActivity(deps, mailbox.teamId, mailbox.id, who, 'rejected', draft.id, `revision ${draft.revision}`);
};
