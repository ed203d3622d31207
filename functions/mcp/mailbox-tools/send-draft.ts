import { jsonSchemaOf } from '@mailstack/core/http/openapi';
import { sendDraft } from '@mailstack/core/domain/mailboxes/send-draft';
import { SendDraftRequest, parseAgentBody, SendDraftResponse } from '@mailstack/core/schemas/mailbox-agent';
import { structuredToolResult } from '@mailstack/core/errors/tool-result';
import { outputSchemaOf } from '../tool.ts';
import type { MailboxMcpTool } from './mailbox-mcp-tool.ts';

/** POST /api/mailbox-agent/send */
export const tool: MailboxMcpTool = {
  name: 'mailbox_send_draft',
  description:
    "Send a draft of this mailbox at the revision you last saw (id, expectedRevision). With a key that may send, it is admitted to the outbox from the mailbox's address (status admitted, emailId); otherwise it awaits the mailbox owner's approval (status awaiting_approval). A repeat for the same revision answers duplicate: true and sends nothing. Admission does not prove delivery. 409 stale_revision means the draft changed; 409 license_required, storage_exhausted or allowance_exhausted and 503 transport_unavailable keep the draft.",
  inputSchema: { ...jsonSchemaOf(SendDraftRequest, 'input'), type: 'object' },
  outputSchema: outputSchemaOf('mailbox_send_draft', SendDraftResponse),
  annotations: { readOnlyHint: false, destructiveHint: false },
  call: async (deps, caller, who, args) =>
    structuredToolResult(await sendDraft(deps, caller, who, parseAgentBody(SendDraftRequest, args))),
};
