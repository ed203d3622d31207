import { tool as listMessages } from './list-messages.ts';
import { tool as readMessage } from './read-message.ts';
import { tool as saveDraft } from './save-draft.ts';
import { tool as sendDraft } from './send-draft.ts';
import type { MailboxMcpTool } from './mailbox-mcp-tool.ts';

/** The tools of a mailbox's MCP endpoint (spec §4), one per route of the mailbox agent API. */
export const MAILBOX_MCP_TOOLS: readonly MailboxMcpTool[] = [listMessages, readMessage, saveDraft, sendDraft];
