import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { ROUTES, routeKey, type Area, type RouteEntry } from '../../functions/routes.ts';
import { MAX_BODY_BYTES } from '@mailstack/core/http/api-route';
import type { ApiHandler, ApiResult } from '@mailstack/core/http/types';
import { ApiError } from '@mailstack/core/errors/api-error';
import { errorResponse, internalErrorResponse } from '@mailstack/core/http/respond';
import { UNSERVED_PATH_WORDS } from '@mailstack/core/http/path-ids';
import { toApiEvent, lambdaContext } from './events.ts';

interface CompiledRoute {
  readonly route: RouteEntry;
  readonly pattern: RegExp;
  readonly names: readonly string[];
}

const compile = (route: RouteEntry): CompiledRoute => {
  const names: string[] = [];
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { route, pattern: new RegExp(`^${source}/?$`), names };
};

const send = (res: ServerResponse, result: ApiResult, headers: Record<string, string> = {}) => {
  res.writeHead(result.statusCode ?? 200, { ...(result.headers as Record<string, string>), ...headers });
  res.end(result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64') : result.body ?? '');
};

/** Loads the Lambda entry of each area once, the same module AWS would run. */
const areaLoader = (functionsDir: string) => {
  const loaded = new Map<Area, Promise<ApiHandler>>();
  return (area: Area): Promise<ApiHandler> => {
    let handler = loaded.get(area);
    if (!handler) {
      handler = import(pathToFileURL(resolve(functionsDir, area, 'index.ts')).href).then((m) => m.handler as ApiHandler);
      loaded.set(area, handler);
    }
    return handler;
  };
};

/**
 * The local HTTP host: matches the route manifest, builds the API Gateway v2 event, and calls
 * the same area handler AWS runs. Path segments are percent-decoded (`+` stays `+`).
 */
export const createApiServer = (functionsDir: string): Server => {
  // Literal paths win over parameters, as in API Gateway (/emails/batch before /emails/{id}).
  const compiled = ROUTES.map(compile).sort((a, b) => a.names.length - b.names.length);
  const load = areaLoader(functionsDir);
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of req as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          return send(res, errorResponse(new ApiError('payload_too_large', `The request body is larger than 25 MiB (${MAX_BODY_BYTES} bytes), attachments included.`)), { connection: 'close' });
        }
        chunks.push(chunk);
      }
      // A parameter matched by a literal word of an unserved endpoint (/contacts/imports) is no match: "endpoint does not exist".
      const candidates = compiled.filter((c) => c.pattern.exec(url.pathname)?.slice(1).every((value) => !UNSERVED_PATH_WORDS.has(value)));
      const hit = candidates.find((c) => c.route.method === req.method);
      if (!hit) {
        if (candidates.length > 0) return send(res, errorResponse(new ApiError('method_not_allowed', `Method ${req.method} is not allowed for ${url.pathname}; allowed: ${candidates.map((c) => c.route.method).join(', ')}.`)));
        return send(res, errorResponse(new ApiError('not_found', `The requested endpoint does not exist: ${req.method} ${url.pathname}.`)));
      }
      const values = hit.pattern.exec(url.pathname)?.slice(1) ?? [];
      const params: Record<string, string> = {};
      hit.names.forEach((name, i) => {
        const raw = values[i] ?? '';
        try { params[name] = decodeURIComponent(raw); } catch { params[name] = raw; }
      });
      const key = routeKey(hit.route);
      const handler = await load(hit.route.area);
      send(res, await handler(toApiEvent(req, url, key, params, Buffer.concat(chunks)), lambdaContext(hit.route.area)));
    } catch (error) {
      console.error('local host: unhandled error', error);
      if (!res.headersSent) send(res, internalErrorResponse());
      else res.end();
    }
  });
  // Idle keep-alive sockets outlive a client's own idle timeout (as load balancers do), so a
  // client reusing one after a pause never races the server closing it ("fetch failed").
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
};
