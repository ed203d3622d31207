import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, putItem, updateItem } from '../../table/ops.ts';
import type { EmailItem } from '../emails/email.ts';
import { messageIdHash, normalizeMessageId } from './message.ts';

/**
 * A mailbox's message went out under the Message-ID the provider wrote in place of ours (SES
 * replaces it): that id is indexed in the mailbox beside ours, pointing at the sent copy and its
 * thread, so a reply quoting it (In-Reply-To, References) joins the thread; and the sent copy
 * shows it, so a later reply from the mailbox quotes what the recipients saw. Idempotent (the
 * send worker and the provider's events may both tell it); nothing for an email no mailbox sent.
 */
export const keepProviderMessageId = async (
  deps: Deps,
  email: Pick<EmailItem, 'team_id' | 'mailbox_sent'>,
  messageId: string,
): Promise<void> => {
  const sent = email.mailbox_sent;
  if (!sent) return;
  const id = normalizeMessageId(messageId);
  await putItem(deps, {
    ...keys.mailbox.messageId(email.team_id, sent.mailbox_id, messageIdHash(id)),
    type: 'message_id',
    message_id: sent.message_id,
    thread_id: sent.thread_id,
  });
  // The sent copy is written after its email is accepted: one not there yet takes the id from its
  // email when it is written (sentCopyMessageId).
  await updateItem(
    deps,
    keys.message.item(email.team_id, sent.message_id),
    { set: { message_id: id } },
    {
      exists: true,
    },
  );
};

/**
 * After a mailbox wrote its sent copy: when the provider had already sent the email under its own
 * Message-ID (the send worker was quicker than the copy's write), the copy takes that id now.
 */
export const sentCopyMessageId = async (deps: Deps, teamId: string, emailId: string, ours: string): Promise<void> => {
  const email = (await getItem(deps, keys.email.item(teamId, emailId))) as EmailItem | undefined;
  if (email?.mailbox_sent && normalizeMessageId(email.message_id) !== normalizeMessageId(ours))
    await keepProviderMessageId(deps, email, email.message_id);
};
