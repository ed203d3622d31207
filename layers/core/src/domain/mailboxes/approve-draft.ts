import { admitDraft, type SendOutcome } from './send-draft.ts';
import type { Deps } from '../../runtime/deps.ts';
import { ApiError } from '../../errors/api-error.ts';
import { loadMailbox, type Mailbox } from './mailbox.ts';
import { isMailboxAgentError } from './agent-error.ts';
import { recordActivity, type MailboxActor } from './activity.ts';
import { findDraft, type MailboxDraft } from './drafts.ts';

/** A decision of the mailbox's owner, in the dashboard: which draft, at which revision. */
export interface ApprovalDecision {
  readonly teamId: string;
  readonly mailboxId: string;
  readonly draftId: string;
  readonly revision: number;
  readonly actorUserId: string;
  readonly actorName: string;
}

export const decidable = async (
  deps: Deps,
  input: ApprovalDecision,
): Promise<{ mailbox: Mailbox; draft: MailboxDraft }> => {
  const mailbox = await loadMailbox(deps, input.teamId, input.mailboxId);
  if (mailbox.ownerUserId !== input.actorUserId)
    throw new ApiError('forbidden', `Only the owner of ${mailbox.address} approves or rejects its drafts.`);
  const draft = await findDraft(deps, mailbox, input.draftId);
  if (!draft) throw new ApiError('not_found', 'Draft not found.');
  if (
    draft.status !== 'awaiting_approval' ||
    draft.approvalRevision !== input.revision ||
    draft.revision !== input.revision
  ) {
    throw new ApiError(
      'conflict',
      `Draft ${draft.id} is no longer waiting at revision ${input.revision} (it is ${draft.status} at revision ${draft.revision}); reload the panel.`,
    );
  }
  return { mailbox, draft };
};

/**
 * The owner approves a draft waiting at a revision: it is admitted as a send with the send
 * permission would be (the same license, domain, allowance and transport checks).
 */
export const approveDraft = async (deps: Deps, input: ApprovalDecision): Promise<SendOutcome> => {
  const { mailbox, draft } = await decidable(deps, input);
  const who: MailboxActor = { actor: `user:${input.actorUserId}`, actorName: input.actorName, via: 'dashboard' };
  try {
    const sent = await admitDraft(deps, mailbox, draft, who, input.actorUserId);
    await recordActivity(deps, mailbox.teamId, mailbox.id, who, 'approved', draft.id, `revision ${draft.revision}`);
    return sent;
  } catch (error) {
    if (isMailboxAgentError(error)) throw new ApiError('conflict', error.message, { cause: error });
    throw error;
  }
};
