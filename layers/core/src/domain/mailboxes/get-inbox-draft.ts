import type { Deps } from '../../runtime/deps.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { Mailbox } from './mailbox.ts';
import { findDraft, type MailboxDraft } from './drafts.ts';

/** A draft of the inbox (404 for another inbox's or team's). */
export const getInboxDraft = async (deps: Deps, m: Mailbox, draftId: string): Promise<MailboxDraft> => {
  const d = await findDraft(deps, m, draftId);
  if (!d) throw new ApiError('not_found', `No draft ${draftId} in ${m.address}.`);
  return d;
};
