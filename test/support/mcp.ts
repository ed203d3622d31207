import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ApiEvent, ApiHandler } from '@mailstack/core/http/types';
import type { Deps } from '@mailstack/core/runtime/deps';
import { createUser } from '@mailstack/core/domain/people/create-user';
import { addMember } from '@mailstack/core/domain/people/add-member';
import type { Role } from '@mailstack/core/domain/people/roles';
import { isScope, roleMayGrant } from '@mailstack/core/domain/oauth/scopes';
import { mcpEndpoint } from '../../functions/mcp/mcp-endpoint.ts';
import type { McpPrincipal } from '../../functions/mcp/server.ts';
import { lambdaContext } from '../../lib/local/events.ts';
import { local, testDeps } from './local.ts';
import { sendingTeam } from './sending.ts';

/**
 * A fetch that answers from a Lambda-style handler in this process: the request becomes the
 * API Gateway event the `/mcp` route would receive, the result the HTTP response. The MCP SDK's
 * client speaks Streamable HTTP through it, so the endpoint runs whole (authentication, the call
 * window, the transport) with a token verifier of the test's choosing.
 */
export const handlerFetch =
  (handler: ApiHandler) =>
  async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const body = request.method === 'POST' ? await request.text() : '';
    const now = Date.now();
    const event = {
      version: '2.0',
      routeKey: `${request.method} /mcp`,
      rawPath: url.pathname,
      rawQueryString: '',
      headers,
      requestContext: {
        accountId: 'local',
        apiId: 'local',
        domainName: url.host,
        domainPrefix: 'local',
        requestId: randomUUID(),
        routeKey: `${request.method} /mcp`,
        stage: '$default',
        http: {
          method: request.method,
          path: url.pathname,
          protocol: 'HTTP/1.1',
          sourceIp: '127.0.0.1',
          userAgent: headers['user-agent'] ?? '',
        },
        time: new Date(now).toUTCString(),
        timeEpoch: now,
      },
      ...(body ? { body } : {}),
      isBase64Encoded: false,
    } as ApiEvent;
    const result = await handler(event, lambdaContext('mcp'));
    return new Response(result.body ? result.body : null, {
      status: result.statusCode ?? 200,
      headers: result.headers as Record<string, string>,
    });
  };

/**
 * The MCP endpoint with a token verifier standing in for the authorization server: each token a
 * test signs in with maps to its principal; any other token is refused as the real one would be.
 */
export const mcpHarness = (deps: () => Deps = testDeps) => {
  const tokens = new Map<string, McpPrincipal>();
  const endpoint = mcpEndpoint({
    deps,
    verify: async (_deps, token, resource) =>
      resource === `${deps().config.PUBLIC_BASE_URL}/mcp` ? (tokens.get(token) ?? null) : null,
  });
  const fetch = handlerFetch(endpoint);
  const url = () => new URL(`${local().baseUrl}/mcp`);

  /** An MCP SDK client connected with `token`. */
  const connect = async (token: string): Promise<Client> => {
    const client = new Client({ name: 'mailstack-tests', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(url(), {
        fetch,
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    return client;
  };

  /** A person of a new team with a verified sending domain, signed in with `scopes`, and their MCP client (connected unless `connect: false`). */
  const signIn = async (
    scopes: readonly string[],
    options: { role?: Role; connect?: boolean; mailboxIds?: string[] } = {},
  ) => {
    const team = await sendingTeam({ plan: 'scale' });
    const user = await createUser(deps(), {
      email: `mcp-${randomUUID().slice(0, 8)}@example.com`,
      name: 'Agent owner',
    });
    const role = options.role ?? 'owner';
    await addMember(deps(), team.team, user, role);
    // As verifyAccessToken answers: the scopes granted, and those the role still allows.
    const principal: McpPrincipal = {
      grantId: randomUUID(),
      clientId: 'test-client',
      teamId: team.team.id,
      userId: user.id,
      scopes: scopes.filter((s) => !isScope(s) || roleMayGrant(role, s)),
      granted: [...scopes],
      mailboxIds: options.mailboxIds ?? [],
    };
    const token = `test-${randomUUID()}`;
    tokens.set(token, principal);
    return {
      ...team,
      user,
      principal,
      token,
      client: options.connect === false ? new Client({ name: 'unconnected', version: '1.0.0' }) : await connect(token),
    };
  };

  /** One raw JSON-RPC POST, as a client sends it. */
  const post = (token: string | undefined, message: unknown) =>
    fetch(url(), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify(message),
    });

  return { endpoint, fetch, connect, signIn, post, tokens };
};

/** The JSON a tool result carries (success body or error body). */
export const resultJson = (result: unknown): any =>
  JSON.parse((result as { content: { type: string; text: string }[] }).content[0]!.text);

/**
 * What a call refused over HTTP rejects with (the MCP SDK client's StreamableHTTPError): a tool
 * outside the token's scopes is the 403 step-up challenge, not a tool result.
 */
export const scopeRefusal = (needs: string) => ({
  code: 403,
  message: expect.stringContaining(`needs the \`${needs}\` scope`),
});
