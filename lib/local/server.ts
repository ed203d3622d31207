import { answerFirst } from '@mailstack/core/http/request-log';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { routeKey, routeMatcher, type Area } from '../../functions/routes.ts';
import {
  BODY_TOO_LARGE_MESSAGE,
  LAMBDA_RESPONSE_MAX_BYTES,
  MAX_BODY_BYTES,
  TOO_LARGE_DRAIN_FACTOR,
  TOO_LARGE_UPLOAD_IDLE_MS,
} from '@mailstack/core/limits';
import type { ApiHandler, ApiResult } from '@mailstack/core/http/types';
import { ApiError } from '@mailstack/core/errors/api-error';
import { errorResponse, internalErrorResponse } from '@mailstack/core/http/respond';
import { normalisePath, unmatchedResponse } from '@mailstack/core/http/unmatched';
import { toApiEvent, lambdaContext } from './events.ts';
import { countedAs, countInvocation, type AdapterCounters } from '@mailstack/core/adapters/aws/counters';

const send = (res: ServerResponse, result: ApiResult, headers: Record<string, string> = {}) => {
  res.writeHead(result.statusCode ?? 200, { ...(result.headers as Record<string, string>), ...headers });
  res.end(result.isBase64Encoded ? Buffer.from(result.body ?? '', 'base64') : (result.body ?? ''));
};

/**
 * The handler's answer as API Gateway passes it on: a result past Lambda's synchronous payload
 * limit (its serialized size, a base64 body included) never leaves Lambda ("Response payload size
 * exceeded maximum allowed payload size"), and the HTTP API answers 502 with its own body.
 */
const asLambdaAnswers = (result: ApiResult, routeKey: string): ApiResult => {
  const size = Buffer.byteLength(JSON.stringify(result));
  if (size <= LAMBDA_RESPONSE_MAX_BYTES) return result;
  console.error(
    `local host: ${routeKey} answered ${size} bytes, past Lambda's ${LAMBDA_RESPONSE_MAX_BYTES}-byte response payload limit; answering 502 as API Gateway does`,
  );
  return {
    statusCode: 502,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ message: 'Internal Server Error' }),
  };
};

const TOO_LARGE = Symbol('too large');
const ABORTED = Symbol('aborted');

/**
 * Reads a request body up to the ceiling and no further: a declared length past it is refused
 * before a byte is read, a stream that grows past it is refused at the byte that crosses it.
 */
const readBody = (req: IncomingMessage): Promise<Buffer | typeof TOO_LARGE | typeof ABORTED> =>
  new Promise((resolveBody) => {
    const declared = Number(req.headers['content-length'] ?? NaN);
    if (declared > MAX_BODY_BYTES) return resolveBody(TOO_LARGE);
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (result: Buffer | typeof TOO_LARGE | typeof ABORTED) => {
      req.off('data', onData);
      resolveBody(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.pause();
        return done(TOO_LARGE);
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => done(Buffer.concat(chunks)));
    req.once('aborted', () => done(ABORTED));
    req.once('error', () => done(ABORTED));
    req.once('close', () => {
      if (!req.complete) done(ABORTED);
    });
  });

/**
 * 413 payload_too_large, then the connection closes; nothing past the ceiling is kept. The whole
 * answer goes out at once (its length is declared, so a client can read it while still
 * uploading). A client that declared a length up to twice the ceiling has the rest of its body
 * read and discarded before the connection closes: closing mid-upload would cut its write (EPIPE)
 * before it read the answer. A client that pauses its upload for 5 s, declared more, or streamed
 * past the ceiling, is cut off.
 */
const refuseTooLarge = (req: IncomingMessage, res: ServerResponse): void => {
  const result = errorResponse(new ApiError('payload_too_large', BODY_TOO_LARGE_MESSAGE));
  res.shouldKeepAlive = false;
  res.writeHead(result.statusCode ?? 413, {
    ...(result.headers as Record<string, string>),
    'content-length': String(Buffer.byteLength(result.body ?? '')),
    connection: 'close',
  });
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > MAX_BODY_BYTES && declared <= TOO_LARGE_DRAIN_FACTOR * MAX_BODY_BYTES && !req.readableEnded) {
    res.write(result.body ?? '');
    let idle: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(idle);
      req.off('data', onData);
      if (!res.writableEnded) res.end();
    };
    const onData = () => {
      clearTimeout(idle);
      idle = setTimeout(finish, TOO_LARGE_UPLOAD_IDLE_MS).unref();
    };
    req.on('data', onData);
    req.once('end', finish);
    req.once('close', finish);
    onData();
    req.resume();
    return;
  }
  // Give the client a moment to read the answer before the unread rest of its body is dropped.
  res.end(result.body, () => setTimeout(() => req.socket.destroy(), 200).unref());
};

/** Loads the Lambda entry of each area once, the same module AWS would run. */
const areaLoader = (functionsDir: string) => {
  const loaded = new Map<Area, Promise<ApiHandler>>();
  return (area: Area): Promise<ApiHandler> => {
    let handler = loaded.get(area);
    if (!handler) {
      handler = import(pathToFileURL(resolve(functionsDir, area, 'index.ts')).href).then(
        (m) => m.handler as ApiHandler,
      );
      loaded.set(area, handler);
    }
    return handler;
  };
};

/**
 * The longest request line and headers the local host reads: HTTP API's quota ("total combined
 * size of request line and header values", 10,240 bytes). Past it the request never reaches a
 * function: 431, answered before the body is read (API Gateway's own refusal, not the catalog's).
 */
const MAX_REQUEST_HEAD_BYTES = 10_240;
const HEAD_TOO_LARGE_BODY = JSON.stringify({ message: 'Request Header Fields Too Large' });

/**
 * The local HTTP host: matches the route manifest, builds the API Gateway v2 event, and calls
 * the same area handler AWS runs. Path segments are percent-decoded (`+` stays `+`); runs of
 * slashes read as one. Each handled request counts as an API request and a Lambda invocation in
 * `counters()`, when given.
 */
export const createApiServer = (
  functionsDir: string,
  counters: () => AdapterCounters | undefined = () => undefined,
): Server => {
  const match = routeMatcher();
  const load = areaLoader(functionsDir);
  // Node refuses a request line and headers past the limit before any route sees them (clientError).
  const server = createServer(
    { maxHeaderSize: MAX_REQUEST_HEAD_BYTES },
    async (req: IncomingMessage, res: ServerResponse) => {
      // A client that goes away mid-answer (an abort, a reset, EPIPE) is no fault of this process.
      req.on('error', () => undefined);
      res.on('error', () => undefined);
      try {
        // Runs of slashes read as one (`//emails`): as the API's `$default` function passes them on, on AWS.
        const target = req.url ?? '/';
        const query = target.indexOf('?');
        const url = new URL(
          query < 0 ? normalisePath(target) : `${normalisePath(target.slice(0, query))}${target.slice(query)}`,
          'http://localhost',
        );
        const body = await readBody(req);
        if (body === TOO_LARGE) return refuseTooLarge(req, res);
        if (body === ABORTED) return;
        const hit = match(req.method ?? 'GET', url.pathname);
        if (!hit || 'allowed' in hit)
          return send(res, unmatchedResponse(req.method ?? 'GET', url.pathname, hit?.allowed ?? []));
        const params: Record<string, string> = {};
        for (const [name, raw] of Object.entries(hit.params)) {
          try {
            params[name] = decodeURIComponent(raw);
          } catch {
            params[name] = raw;
          }
        }
        const key = routeKey(hit.route);
        const handler = await load(hit.route.area);
        // One API Gateway request and one Lambda invocation, timed as Lambda bills it.
        // Its request log is queued once the answer is sent (Lambda's invocation waits for it: counted in).
        const started = performance.now();
        const event = toApiEvent(req, url, key, params, body);
        const logged = answerFirst(event);
        await countedAs.run(hit.route.area, async () => {
          send(res, asLambdaAnswers(await handler(event, lambdaContext(hit.route.area)), key));
          await logged();
        });
        const counted = counters();
        if (counted) {
          counted.apiRequests += 1;
          countInvocation(counted, performance.now() - started);
        }
      } catch (error) {
        console.error('local host: unhandled error', error);
        if (res.destroyed) return;
        if (!res.headersSent) send(res, internalErrorResponse());
        else res.end();
      }
    },
  );
  // Keep idle connections well past a client's pause (Node closes them after 5 s by default, and
  // a client reusing one at that moment sees a reset instead of an answer), as load balancers do.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    if (error.code === 'HPE_HEADER_OVERFLOW')
      return socket.end(
        `HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\ncontent-length: ${HEAD_TOO_LARGE_BODY.length}\r\nconnection: close\r\n\r\n${HEAD_TOO_LARGE_BODY}`,
      );
    socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
};
