import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ApiError, isApiError } from '@mailstack/core/errors/api-error';
import { isMailboxAgentError } from '@mailstack/core/domain/mailboxes/agent-error';
import { structuredToolResult, toolErrorResult, type ToolResult } from '@mailstack/core/errors/tool-result';
import type { Role } from '@mailstack/core/domain/people/roles';
import { roleMayGrant } from '@mailstack/core/domain/oauth/scopes';
import type { OAuthPrincipal } from '@mailstack/core/domain/oauth/index';
import type { Caller } from '@mailstack/core/domain/caller';
import type { Deps } from '@mailstack/core/runtime/deps';
import { TOOLS } from './tools/index.ts';
import type { McpTool, ToolScope } from './tool.ts';

/**
 * Who calls the MCP server: a person's OAuth grant (an access token resolves to it), the team
 * they chose, and the scopes they consented to.
 */
export type McpPrincipal = OAuthPrincipal;

/** The principal as the tools act: the team's caller and the person's role in it. */
export interface McpActor {
  readonly principal: McpPrincipal;
  readonly caller: Caller;
  readonly role: Role;
}

/** The server's name and version as `initialize` reports them. */
export const SERVER_INFO = { name: 'mailstack', version: '1.0.0' } as const;

const INSTRUCTIONS =
  'Tools of the mailstack email service (a Resend-compatible API) for the team you signed in to: send and inspect email, manage contacts, segments, topics, suppressions, templates, broadcasts, sending domains and webhooks, and read mail and write and send drafts in the mailboxes the person chose. A refused call returns isError with {statusCode, name, message}: the same error the REST API gives; 429 rate_limit_exceeded means wait and retry.';

/** The scopes that let a principal use a tool (its scope, or its alternative). */
const scopesOf = (tool: McpTool): ToolScope[] => [tool.scope, ...(tool.orScope ? [tool.orScope] : [])];

/**
 * The scope a call to `tool` lacks and the refusal's words, or undefined when the scopes hold one
 * of the tool's. The endpoint answers it as HTTP 403 with the step-up challenge; a server run
 * without that endpoint answers it as an isError result.
 */
export const missingScope = (
  scopes: readonly string[],
  tool: McpTool,
): { scope: ToolScope; message: string } | undefined =>
  scopesOf(tool).some((s) => scopes.includes(s))
    ? undefined
    : {
        scope: tool.scope,
        message: `${tool.name} needs the \`${tool.scope}\` scope${tool.orScope ? ` (or \`${tool.orScope}\`)` : ''}, which this sign-in was not granted. Sign in again and grant it on the consent screen (an MCP client does so from the 403's WWW-Authenticate scope).`,
      };

/** The tools the principal's scopes allow (a tool outside them is neither listed nor callable). */
const toolsFor = (scopes: readonly string[], tools: readonly McpTool[] = TOOLS): McpTool[] =>
  tools.filter((t) => scopesOf(t).some((s) => scopes.includes(s)));

/** A call to a tool the server does not have: the protocol's invalid-params error (MCP tools, error handling), not a tool result. */
export const unknownTool = (name: string, served: string): McpError =>
  new McpError(ErrorCode.InvalidParams, `Unknown tool: \`${name.slice(0, 100)}\`. ${served}`);

const runTool = async (
  deps: Deps,
  actor: McpActor,
  tool: McpTool,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolResult> => {
  try {
    // Never granted: refused as such. Granted, but the person's role no longer allows it: refused for the role.
    const held = scopesOf(tool).filter((s) => actor.principal.granted.includes(s));
    const missing = missingScope(actor.principal.granted, tool);
    if (missing) throw new ApiError('forbidden', missing.message);
    // The role is read on every call: a person whose role no longer allows the scope cannot use it through an agent either.
    if (!held.some((s) => roleMayGrant(actor.role, s))) {
      throw new ApiError(
        'forbidden',
        `Your role in this team (${actor.role}) does not allow ${held.join(' or ')}, which ${name} needs; ask an owner or admin of the team.`,
      );
    }
    // Every tool declares an output schema: its answer is structuredContent, and the same as JSON text.
    return structuredToolResult((await tool.call(deps, actor, args)) as object);
  } catch (error) {
    if (isApiError(error) || isMailboxAgentError(error)) return toolErrorResult(error);
    deps.logger.error('mcp tool failed', { tool: name, error: error as Error });
    return toolErrorResult(
      new ApiError('internal_server_error', 'An unexpected error occurred. It has been logged; retry with backoff.'),
    );
  }
};

/**
 * The MCP server of one request, for one principal (stateless: a new server per request, as
 * Lambda runs it): `tools/list` answers the tools the scopes allow, `tools/call` runs one
 * through its REST route (or, for a mailbox's drafts, the mailbox agent's use case) as the principal.
 */
export const createMcpServer = (deps: Deps, actor: McpActor, tools: readonly McpTool[] = TOOLS): Server => {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: INSTRUCTIONS,
  });
  const byName = new Map(tools.map((t) => [t.name, t]));
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: toolsFor(actor.principal.scopes, tools).map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
      outputSchema: t.outputSchema,
      annotations: t.annotations,
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) throw unknownTool(request.params.name, 'tools/list names the tools this sign-in may use.');
    return runTool(deps, actor, tool, request.params.name, request.params.arguments ?? {});
  });
  return server;
};
