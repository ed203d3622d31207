import type { ApiError } from './api-error.ts';

/** An MCP tool result (the shape of the protocol's CallToolResult), as the MCP host answers it. */
export interface ToolResult {
  readonly content: { type: 'text'; text: string }[];
  readonly isError?: true;
  [key: string]: unknown;
}

/** A tool's success: the REST route's response body, as JSON text. */
export const toolResult = (body: unknown): ToolResult => ({ content: [{ type: 'text', text: JSON.stringify(body, null, 2) }] });

/**
 * A refusal as an MCP tool result (spec §7 retry rule 5): flagged `isError`, carrying the same
 * `{statusCode, name, message}` the REST API answers, so a model reads the same rule in the same words.
 */
export const toolErrorResult = (error: ApiError): ToolResult => ({ isError: true, content: [{ type: 'text', text: JSON.stringify(error.toJSON()) }] });
