import type { Deps } from '@mailstack/core/runtime/deps';
import type { ToolResult } from '@mailstack/core/errors/tool-result';
import type { MailboxCaller } from '@mailstack/core/domain/mailboxes/mailbox-key';
import type { MailboxActor } from '@mailstack/core/domain/mailboxes/activity';

/** A tool of a mailbox's MCP endpoint (`/mcp/<mailbox>`): it acts in the key's mailbox only. */
export interface MailboxMcpTool {
  /** The tool's name (spec §4: `mailbox_` and a verb). */
  readonly name: string;
  /** What it does and when to use it, written for a model. */
  readonly description: string;
  readonly inputSchema: Record<string, unknown> & { type: 'object' };
  /** The JSON Schema of a success's `structuredContent`: the mailbox agent API's answer schema for the same route. */
  readonly outputSchema: Record<string, unknown> & { type: 'object' };
  readonly annotations: { readonly readOnlyHint: boolean; readonly destructiveHint: boolean };
  /** Runs the mailbox agent's use case as the key; a refusal is a thrown MailboxAgentError. */
  call(
    deps: Deps,
    caller: MailboxCaller,
    who: MailboxActor,
    args: Readonly<Record<string, unknown>>,
  ): Promise<ToolResult>;
}
