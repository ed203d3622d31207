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
  const body =
    event.body === undefined || event.body === null
      ? undefined
      : event.isBase64Encoded
        ? Buffer.from(event.body, 'base64')
        : event.body;
  return new Request(`${deps.config.PUBLIC_BASE_URL.replace(/\/$/, '')}${event.rawPath ?? '/mcp'}`, {
    method,
    headers,
    ...(body !== undefined && method === 'POST' ? { body } : {}),
  });
};

const toResult = async (response: Response): Promise<ApiResult> => {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { statusCode: response.status, headers, body: await response.text() };
};

/** Serves one JSON-RPC request with `server`, refusing bodies past `maxRequestBodySize` bytes, and closes it. */
export const serveStateless = async (
  deps: Deps,
  event: ApiEvent,
  server: Server,
  maxRequestBodySize: number,
): Promise<ApiResult> => {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize,
  });
  try {
    await server.connect(transport);
    return await toResult(await transport.handleRequest(toRequest(deps, event)));
  } finally {
    await server.close();
  }
};

/** A loopback name: localhost, 127.0.0.0/8 or [::1]. */
const isLoopback = (hostname: string): boolean =>
  hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);

/** The service's own origins (the API's and the dashboard's base URLs), the only ones a browser may call the MCP endpoints from. */
const allowedOrigins = (deps: Deps): URL[] =>
  [deps.config.PUBLIC_BASE_URL, deps.config.DASHBOARD_URL].flatMap((base) => {
    try {
      return [new URL(base)];
    } catch {
      return [];
    }
  });

const portOf = (u: URL): string => u.port || (u.protocol === 'https:' ? '443' : '80');

/** The same host and port; a loopback base URL (the local host) also answers to the other loopback names. */
const sameHost = (u: URL, allowed: URL): boolean =>
  (u.hostname === allowed.hostname || (isLoopback(u.hostname) && isLoopback(allowed.hostname))) &&
  portOf(u) === portOf(allowed);

const parse = (url: string): URL | undefined => {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
};

/**
 * The Streamable HTTP transport's DNS-rebinding guard (MCP 2025-11-25, transports, security
 * warning): an `Origin` header that is not one of the service's own origins, or a `Host` header
 * that does not name the service, is refused with 403 before anything else runs (no
 * authentication, no counting). A request without Origin (a client that is not a browser) passes.
 */
export const refuseForeignOrigin = (deps: Deps, event: ApiEvent): ApiResult | undefined => {
  const headers = event.headers ?? {};
  const origin = headers.origin ?? headers.Origin;
  const host = headers.host ?? headers.Host;
  const allowed = allowedOrigins(deps);
  if (origin !== undefined) {
    const u = parse(origin);
    if (!u || !allowed.some((a) => a.protocol === u.protocol && sameHost(u, a))) {
      return errorResponse(
        new ApiError(
          'forbidden',
          `The Origin header \`${origin.slice(0, 200)}\` is not one of this service's origins (${allowed.map((a) => a.origin).join(', ')}): the MCP endpoints refuse calls from other web pages (DNS rebinding protection). A client that is not a browser sends no Origin.`,
        ),
      );
    }
  }
  if (host !== undefined) {
    // The Host carries no scheme: its port is compared with each base URL's, a missing one meaning that URL's default.
    if (
      !allowed.some((a) => {
        const u = parse(`${a.protocol}//${host}`);
        return u !== undefined && sameHost(u, a);
      })
    ) {
      return errorResponse(
        new ApiError(
          'forbidden',
          `The Host header \`${host.slice(0, 200)}\` does not name this service (${allowed.map((a) => a.host).join(', ')}): the MCP endpoints answer only at their own address (DNS rebinding protection).`,
        ),
      );
    }
  }
  return undefined;
};

/** GET (a server-sent event stream) and DELETE (ending a session) have nothing to serve on a stateless server: 405. */
export const notServed = (method: string, path: string): ApiResult => {
  const result = errorResponse(
    new ApiError(
      'method_not_allowed',
      `${method} ${path} is not served: this MCP server is stateless (no sessions, no server-initiated stream). Send JSON-RPC requests with POST.`,
    ),
  );
  return { ...result, headers: { ...result.headers, allow: 'POST' } };
};
