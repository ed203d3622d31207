import { type InboxDraftInput, asApi, apiKeyActor, apiKeyMailboxCaller } from './inbox-draft.ts';
import { getInboxDraft } from './get-inbox-draft.ts';
import type { Deps } from '../../runtime/deps.ts';
import type { Caller } from '../caller.ts';
import type { Mailbox } from './mailbox.ts';
import { saveDraft, type MailboxDraft } from './drafts.ts';

/** Edits a draft: a new revision from `revision` (the latest when left out; a stale one is 409). */
export const updateInboxDraft = async (
  deps: Deps,
  caller: Caller,
  m: Mailbox,
  draftId: string,
  input: InboxDraftInput,
): Promise<MailboxDraft> => {
  const d = await getInboxDraft(deps, m, draftId);
  const saved = await asApi(() =>
    saveDraft(deps, apiKeyMailboxCaller(caller, m), apiKeyActor(caller), {
      id: d.id,
      expectedRevision: input.revision ?? d.revision,
      to: [...(input.to ?? d.to)],
      subject: input.subject ?? d.subject,
      text: input.text ?? d.text,
      retainedAttachments: input.attachments === undefined ? d.attachments.map((a) => a.index) : [],
      uploads: [...(input.attachments ?? [])],
    }),
  );
  return saved.draft;
};
