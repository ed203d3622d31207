import { type InboxDraftInput, asApi, apiKeyActor, apiKeyMailboxCaller } from './inbox-draft.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem } from '../../table/ops.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { Caller } from '../caller.ts';
import type { Mailbox } from './mailbox.ts';
import { saveDraft, type MailboxDraft } from './drafts.ts';

/**
 * Creates a draft (a reply when `replyToEmailId` names an email of `threadId`: it joins that
 * thread and goes out with In-Reply-To and References). Counts one more draft of the inbox.
 */
export const createInboxDraft = async (
  deps: Deps,
  caller: Caller,
  m: Mailbox,
  input: InboxDraftInput & { threadId?: string | undefined; replyToEmailId?: string | undefined },
): Promise<MailboxDraft> => {
  if (input.replyToEmailId) {
    const source = await getItem(deps, keys.message.item(m.teamId, input.replyToEmailId));
    if (!source || source.mailbox_id !== m.id || source.thread_id !== input.threadId)
      throw new ApiError('not_found', `No email ${input.replyToEmailId} in thread ${input.threadId} of ${m.address}.`);
  }
  const saved = await asApi(() =>
    saveDraft(deps, apiKeyMailboxCaller(caller, m), apiKeyActor(caller), {
      expectedRevision: 0,
      to: [...(input.to ?? [])],
      subject: input.subject ?? '',
      text: input.text ?? '',
      retainedAttachments: [],
      uploads: [...(input.attachments ?? [])],
      ...(input.replyToEmailId ? { sourceItemId: input.replyToEmailId } : {}),
    }),
  );
  return saved.draft;
};
