/** An MCP tool result (the shape of the protocol's CallToolResult), as the MCP host answers it. */
export interface ToolResult {
  readonly content: { type: 'text'; text: string }[];
  readonly isError?: true;
  [key: string]: unknown;
}

/** A refusal that knows its wire body: the REST API's ApiError and the mailbox agent's MailboxAgentError. */
export interface ToolRefusal {
  toJSON(): { statusCode: number; name: string; message: string };
}

/** A tool's success: the REST route's response body, as JSON text. */
const toolResult = (body: unknown): ToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(body, null, 2) }],
});

/** A tool's success carrying an object both as `structuredContent` and as JSON text (for clients that read either). */
export const structuredToolResult = (body: object): ToolResult => ({ ...toolResult(body), structuredContent: body });

/**
 * A refusal as an MCP tool result (spec §7 retry rule 5): flagged `isError`, carrying the same
 * `{statusCode, name, message}` the REST API (or the mailbox agent API) answers, so a model reads
 * the same rule in the same words.
 */
export const toolErrorResult = (error: ToolRefusal): ToolResult => ({
  isError: true,
  content: [{ type: 'text', text: JSON.stringify(error.toJSON()) }],
});
