import { getDeps, type Deps } from '@mailstack/core/runtime/deps';
import { isApiError } from '@mailstack/core/errors/api-error';
import { errorResponse, internalErrorResponse } from '@mailstack/core/http/respond';
import type { ApiEvent, ApiHandler, ApiResult } from '@mailstack/core/http/types';
import { countMcpCall } from '@mailstack/core/domain/rate-limits/request-rate';
import { countFailedAuthentication } from '@mailstack/core/domain/api-keys/authenticate-key';
import { getTeam } from '@mailstack/core/domain/teams/team';
import { findMembership } from '@mailstack/core/domain/people/membership';
import { callerOfGrant } from '@mailstack/core/domain/caller';
import { MAX_BODY_BYTES } from '@mailstack/core/limits';
import {
  authenticateMcp,
  insufficientScope,
  isChallenge,
  mcpChallenge,
  type AccessTokenVerifier,
} from './authenticate.ts';
import { createMcpServer, missingScope, type McpActor } from './server.ts';
import { TOOLS } from './tools/index.ts';
import type { McpTool } from './tool.ts';
import { notServed, refuseForeignOrigin, serveStateless } from './streamable-http.ts';

/** What the endpoint runs with; tests inject a verifier and their deps. */
export interface McpEndpointOptions {
  readonly deps?: () => Deps;
  readonly verify?: AccessTokenVerifier;
  readonly tools?: readonly McpTool[];
}

/** The person behind a grant as the tools act; undefined when the team is gone or they left it. */
const actorOf = async (deps: Deps, principal: McpActor['principal']): Promise<McpActor | undefined> => {
  const [team, membership] = await Promise.all([
    getTeam(deps, principal.teamId),
    findMembership(deps, principal.teamId, principal.userId),
  ]);
  return team && membership
    ? { principal, caller: callerOfGrant(principal.grantId, team, principal.mailboxIds), role: membership.role }
    : undefined;
};

/** The tool names of the `tools/call` requests in a POST body (one message or a batch); none when the body is not JSON. */
const calledTools = (event: ApiEvent): string[] => {
  if (!event.body) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body);
  } catch {
    return [];
  }
  return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((m) => {
    const name = m && typeof m === 'object' && m.method === 'tools/call' ? m.params?.name : undefined;
    return typeof name === 'string' ? [name] : [];
  });
};

/** The 403 step-up challenge of a call to a tool outside the token's scopes (unknown tools are the server's -32602). */
const scopeChallenge = (
  deps: Deps,
  actor: McpActor,
  event: ApiEvent,
  tools: readonly McpTool[],
): ApiResult | undefined => {
  for (const name of calledTools(event)) {
    const tool = tools.find((t) => t.name === name);
    // Only a scope never granted is worth a new consent: one the role holds back is a tool error (403 forbidden).
    const missing = tool && missingScope(actor.principal.granted, tool);
    if (missing) return insufficientScope(deps, actor.principal.scopes, missing.scope, missing.message);
  }
  return undefined;
};

/**
 * `POST/GET/DELETE /mcp`: the hosted MCP server over Streamable HTTP, stateless (a server and
 * transport per request, JSON responses rather than event streams, as Lambda answers). A
 * foreign Origin or Host is refused first (403), then the bearer token is verified (401 with
 * the challenge otherwise), then the call is counted against the person's minute (429 past it),
 * a call to a tool outside the token's scopes is refused with the 403 step-up challenge, and
 * then the JSON-RPC message is served.
 */
export const mcpEndpoint = (options: McpEndpointOptions = {}): ApiHandler =>
  async function mcp(event) {
    const deps = (options.deps ?? getDeps)();
    try {
      const foreign = refuseForeignOrigin(deps, event);
      if (foreign) return foreign;
      const headers = event.headers ?? {};
      const authenticated = await authenticateMcp(deps, headers.authorization ?? headers.Authorization, options.verify);
      if (isChallenge(authenticated)) {
        // A presented token that is not valid counts against the address (spec §5 rule 5); a
        // missing one is a client's first step to sign in and does not.
        if (authenticated.presented)
          await countFailedAuthentication(deps, event.requestContext.http.sourceIp, 'mcp', 'the access token');
        return authenticated.challenge;
      }
      await countMcpCall(deps, authenticated.userId);
      const actor = await actorOf(deps, authenticated);
      if (!actor) return mcpChallenge(deps, 'revoked').challenge;
      const method = event.requestContext.http.method;
      if (method !== 'POST') return notServed(method, '/mcp');
      const tools = options.tools ?? TOOLS;
      const stepUp = scopeChallenge(deps, actor, event, tools);
      if (stepUp) return stepUp;
      return await serveStateless(deps, event, createMcpServer(deps, actor, tools), MAX_BODY_BYTES);
    } catch (error) {
      if (isApiError(error)) return errorResponse(error);
      deps.logger.error('mcp endpoint failed', error as Error);
      return internalErrorResponse();
    }
  };

/** The Lambda handler of the `/mcp` routes. */
export const handler = mcpEndpoint();
