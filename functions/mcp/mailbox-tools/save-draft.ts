import { jsonSchemaOf } from '@mailstack/core/http/openapi';
import { saveDraft, savedDraftView } from '@mailstack/core/domain/mailboxes/drafts';
import { SaveDraftRequest, parseAgentBody, SavedDraftResponse } from '@mailstack/core/schemas/mailbox-agent';
import { structuredToolResult } from '@mailstack/core/errors/tool-result';
import { outputSchemaOf } from '../tool.ts';
import type { MailboxMcpTool } from './mailbox-mcp-tool.ts';

/** POST /api/mailbox-agent/drafts */
export const tool: MailboxMcpTool = {
  name: 'mailbox_save_draft',
  description:
    "Save a draft in this mailbox: a new one (no id, expectedRevision 0; sourceItemId to answer an inbox message in its thread), or a new revision of one (id, sourceItemId equal to it, expectedRevision its latest revision). to: 1 to 20 addresses; retainedAttachments: indexes of the source's attachments to keep; uploads: [{filename, base64}] (at most 10 attachments of 256 KiB, a 1 MiB message). Both arrays are required, [] for none. Answers {id, revision, status, to, subject, attachments}. 409 stale_revision means someone saved first: read the draft again. Saving never sends: mailbox_send_draft does.",
  inputSchema: { ...jsonSchemaOf(SaveDraftRequest, 'input'), type: 'object' },
  outputSchema: outputSchemaOf('mailbox_save_draft', SavedDraftResponse),
  annotations: { readOnlyHint: false, destructiveHint: false },
  call: async (deps, caller, who, args) =>
    structuredToolResult(savedDraftView(await saveDraft(deps, caller, who, parseAgentBody(SaveDraftRequest, args)))),
};
