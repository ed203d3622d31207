import { AGENT_FOLDERS, listAgentItems } from '@mailstack/core/domain/mailboxes/agent-items';
import { structuredToolResult } from '@mailstack/core/errors/tool-result';
import { AgentItemList } from '@mailstack/core/schemas/mailbox-agent';
import { outputSchemaOf } from '../tool.ts';
import type { MailboxMcpTool } from './mailbox-mcp-tool.ts';

/** GET /api/mailbox-agent/items?folder=… */
export const tool: MailboxMcpTool = {
  name: 'mailbox_list_messages',
  description:
    'List the latest items of a folder of this mailbox, newest first: inbox (received mail), drafts, or sent. Answers {items, limited}: at most 50 summaries (id, from, to, subject, threadId, attachmentCount; drafts also revision and status), limited: true when older ones exist (there is no cursor). Read one with mailbox_read_message.',
  inputSchema: {
    type: 'object',
    properties: { folder: { type: 'string', enum: [...AGENT_FOLDERS], description: 'The folder to list.' } },
    required: ['folder'],
  },
  outputSchema: outputSchemaOf('mailbox_list_messages', AgentItemList),
  annotations: { readOnlyHint: true, destructiveHint: false },
  call: async (deps, caller, who, args) =>
    structuredToolResult(await listAgentItems(deps, caller, who, args.folder as string | undefined)),
};
