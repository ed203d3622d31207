import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { ApiError } from '@mailstack/core/errors/api-error';
import { errorResponse } from '@mailstack/core/http/respond';
import type { ApiEvent, ApiResult } from '@mailstack/core/http/types';
import type { Deps } from '@mailstack/core/runtime/deps';

/**
 * The Streamable HTTP plumbing the MCP endpoints share (the hosted server at `/mcp`, each
 * mailbox's at `/mcp/<mailbox>`): stateless, a server and transport per request, JSON answers
 * rather than event streams, as Lambda answers.
 */

const toRequest = (deps: Deps, event: ApiEvent): Request => {
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {})) if (value !== undefined) headers.set(name, value);
  const method = event.requestContext.http.method;
  const body = event.body === undefined || event.body === null ? undefined : event.isBase64Encoded ? Buffer.from(event.body, 'base64') : event.body;
  return new Request(`${deps.config.PUBLIC_BASE_URL.replace(/\/$/, '')}${event.rawPath ?? '/mcp'}`, { method, headers, ...(body !== undefined && method === 'POST' ? { body } : {}) });
};

const toResult = async (response: Response): Promise<ApiResult> => {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => { headers[name] = value; });
  return { statusCode: response.status, headers, body: await response.text() };
};

/** Serves one JSON-RPC request with `server`, refusing bodies past `maxRequestBodySize` bytes, and closes it. */
export const serveStateless = async (deps: Deps, event: ApiEvent, server: Server, maxRequestBodySize: number): Promise<ApiResult> => {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true, maxRequestBodySize });
  try {
    await server.connect(transport);
    return await toResult(await transport.handleRequest(toRequest(deps, event)));
  } finally {
    await server.close();
  }
};

/** GET (a server-sent event stream) and DELETE (ending a session) have nothing to serve on a stateless server: 405. */
export const notServed = (method: string, path: string): ApiResult => {
  const result = errorResponse(new ApiError('method_not_allowed', `${method} ${path} is not served: this MCP server is stateless (no sessions, no server-initiated stream). Send JSON-RPC requests with POST.`));
  return { ...result, headers: { ...result.headers, allow: 'POST' } };
};
