import { sendDraft } from '@mailstack/core/domain/mailboxes/send-draft';
import { SendDraftRequest, SendDraftResponse } from '@mailstack/core/schemas/mailbox-agent';
import { mailboxTool } from '../mailbox-tool.ts';

/** POST /api/mailbox-agent/send, in a mailbox chosen at consent. */
export const tool = mailboxTool({
  name: 'send_mailbox_draft',
  scope: 'mail:send',
  // With mail:draft alone, a send puts the draft before the mailbox's owner for approval.
  orScope: 'mail:draft',
  description:
    "Send a draft of one of the mailboxes the person chose when connecting you (mailbox_id), at the revision you last saw (id, expectedRevision). With mail:send it is admitted to the outbox from the mailbox's address (status admitted, emailId); with mail:draft alone it awaits the owner's approval (status awaiting_approval). A repeat for the same revision answers duplicate: true and sends nothing. Admission does not prove delivery. 409 stale_revision means the draft changed; 409 license_required, storage_exhausted or allowance_exhausted and 503 transport_unavailable keep the draft.",
  body: SendDraftRequest,
  answer: SendDraftResponse,
  run: (deps, caller, who, input) => sendDraft(deps, caller, who, input),
});
