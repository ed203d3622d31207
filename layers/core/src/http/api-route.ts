import middy, { type MiddlewareObj } from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import * as v from 'valibot';
import { flushMetrics, getDeps, type Deps } from '../runtime/deps.ts';
import { ApiError, isApiError } from '../errors/api-error.ts';
import { identify, type Access } from './auth.ts';
import type { Caller } from '../domain/caller.ts';
import { BODY_TOO_LARGE_MESSAGE, MAX_BODY_BYTES } from '../limits.ts';
import { errorResponse, internalErrorResponse, json } from './respond.ts';
import { validate } from '../schemas/validate.ts';
import { absorbPathIds, endpointDoesNotExist, namesUnservedPath } from './path-ids.ts';
import { answersList, checkBodyKind, checkListParams, checkPathIds, validatePathIds } from './boundary.ts';
import type { ErrorName } from '../errors/catalog.ts';
import { recordAnswer } from './request-log.ts';
import type { ApiContext, ApiEvent, ApiHandler, ApiResult } from './types.ts';

/** What a route's handler receives: validated input, the caller, and the dependencies. */
interface RouteInput<B, Q, P, A> {
  readonly body: B;
  readonly query: Q;
  readonly params: P;
  readonly auth: A;
  readonly deps: Deps;
  readonly event: ApiEvent;
  /** Request headers, names lower-cased. */
  readonly headers: Readonly<Record<string, string | undefined>>;
}

/** A response a route builds itself (HTML pages, non-200 statuses, extra headers). */
export class RawResponse {
  constructor(readonly result: ApiResult) {}
}

/**
 * A JSON answer with another success status than the route's own (one of its `alsoStatus`): POST
 * /domains/claim answers 201 for a new claim and 200 for an identical pending one.
 */
export class JsonWithStatus {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

type Out<S> = S extends v.GenericSchema ? v.InferOutput<S> : any;

/** What a middleware adds to the routes that use it, for the OpenAPI description: request headers it reads, errors it answers. */
interface MiddlewareDoc {
  readonly headers?: v.GenericSchema;
  readonly errors?: readonly ErrorName[];
}

/** A middy middleware of the stack, optionally describing itself. */
export type RouteMiddleware = MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> & { readonly doc?: MiddlewareDoc };

/**
 * The declaration of one route: who may call it, its request and response schemas, the error
 * names it may answer, and its handler. The schemas are the contract: the stack validates the
 * request with them, and `npm run openapi` (and `GET /openapi.json`) describes the route from them.
 */
export interface RouteSpec<BS, QS, PS, A extends Access> {
  readonly access: A;
  readonly body?: BS;
  readonly query?: QS;
  readonly params?: PS;
  /** Request headers the route reads (an object schema of lower-case names), validated like the body. */
  readonly headers?: v.GenericSchema;
  /** Success status. @default - 200 */
  readonly status?: number;
  /** Other success statuses the handler may answer (a JsonWithStatus) with the same response schema. */
  readonly alsoStatus?: readonly number[];
  /**
   * The success body: a JSON schema of what the handler returns; with `responseFormat: 'html'`
   * the page, with `'gif'` the image, with `'redirect'` nothing (the Location header), with
   * `'binary'` a file (application/octet-stream).
   */
  readonly response: v.GenericSchema;
  /** @default - 'json' */
  readonly responseFormat?: 'json' | 'html' | 'gif' | 'redirect' | 'binary';
  /**
   * The error names this route's own rules answer (conflict, plan_limit_reached, ...). Those of
   * the stack (authentication, validation, payload, rate, not_found on a path id) are added for it.
   */
  readonly errors?: readonly ErrorName[];
  /**
   * `oauth`: the route speaks an OAuth protocol (RFC 6749, 7591), so its error bodies also carry
   * the protocol's `error` and `error_description` beside the spec's `statusCode, name, message`
   * (clients of either kind read theirs); on a redirect route a refusal that must not redirect
   * is an HTML page with 400.
   */
  readonly errorFormat?: 'oauth';
  /** How the body is encoded: JSON, or an HTML form (application/x-www-form-urlencoded). @default - 'json' */
  readonly bodyFormat?: 'json' | 'form';
  /**
   * `beside`: the request-rate count (spec §8) runs beside the route's own reads instead of before
   * them, and its use case awaits `caller.admitted` before its first write (the accept path, where
   * it saves a table round trip). The answer over the limit is still 429, and nothing is written.
   * @default - 'before'
   */
  readonly rateCount?: 'before' | 'beside';
  /** Extra middy middlewares, run after authentication and parsing (idempotency). */
  readonly middlewares?: readonly RouteMiddleware[];
  readonly handler: (
    input: RouteInput<Out<BS>, Out<QS>, Out<PS>, A extends 'public' ? undefined : Caller>,
  ) => Promise<unknown>;
}

/** A route's declaration, as the OpenAPI generator reads it. */
export type RouteDeclaration = Omit<
  RouteSpec<v.GenericSchema | undefined, v.GenericSchema | undefined, v.GenericSchema | undefined, Access>,
  'handler'
>;

/**
 * A request to a route from another host than the HTTP API (the MCP tools): the caller is
 * already authenticated, the body already parsed. `run` validates it exactly as the HTTP stack
 * does (the same schemas, path-id bounds and list conventions, so the same refusals) and calls
 * the route's handler. The route's middlewares (idempotency) are HTTP concerns and do not run.
 */
interface RouteCall {
  /** The manifest route key this call stands for ("PATCH /emails/{id}"). */
  readonly routeKey: string;
  readonly caller: Caller | undefined;
  readonly deps: Deps;
  readonly pathParameters?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /** Request headers, names lower-cased. */
  readonly headers?: Readonly<Record<string, string>>;
}

/** The Lambda handler of one route, carrying its declaration, and `run` for hosts that authenticate their own way. */
export type RouteHandler = ApiHandler & {
  readonly route: RouteDeclaration;
  readonly run: (call: RouteCall) => Promise<unknown>;
};

/** The parsed request a route's middlewares share through the Lambda context. */
export interface RequestState {
  auth?: Caller;
  /** The request-rate count of a route that counts beside its reads, still settling. */
  admitted?: Promise<void>;
  body?: unknown;
  query?: unknown;
  params?: unknown;
}

/** Per-request state, keyed by the event object (both live for one invocation). */
export const requestState = new WeakMap<ApiEvent, RequestState>();

const readBody = (event: ApiEvent): unknown => {
  if (event.body === undefined || event.body === null || event.body === '') return undefined;
  const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (Buffer.byteLength(raw) > MAX_BODY_BYTES) {
    throw new ApiError('payload_too_large', BODY_TOO_LARGE_MESSAGE);
  }
  if (raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw new ApiError('invalid_payload', 'The request body is not valid JSON.');
  }
};

const lowerCaseHeaders = (event: ApiEvent): Record<string, string | undefined> =>
  Object.fromEntries(Object.entries(event.headers ?? {}).map(([k, val]) => [k.toLowerCase(), val]));

/** The body of a route that declares none: nothing, or an empty object. */
const NoBody = v.optional(v.strictObject({}, 'This endpoint takes no request body.'));

const mapErrors = (deps: () => Deps): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> => ({
  onError: async function mapErrorsOnError(request) {
    let error = request.error;
    // Over the rate limit, 429 answers before anything the route found wrong meanwhile.
    const admitted = requestState.get(request.event)?.admitted;
    if (admitted)
      await admitted.catch((refused: unknown) => {
        error = refused as Error;
      });
    if (isApiError(error)) {
      request.response = errorResponse(error);
      return;
    }
    deps().logger.error('unhandled error', error as Error);
    request.response = internalErrorResponse();
  },
});

/**
 * Builds a route handler: logger, error mapping, authentication, request-rate counting,
 * body/query/path parsing with valibot, then the route's own handler. Handlers return a
 * plain object (sent as JSON with `status`) or a RawResponse. The handler carries its
 * declaration (`route`) for the OpenAPI generator; the middleware chain is built on the first
 * request, so reading declarations touches no configuration.
 */
export const apiRoute = <
  BS extends v.GenericSchema | undefined = undefined,
  QS extends v.GenericSchema | undefined = undefined,
  PS extends v.GenericSchema | undefined = undefined,
  A extends Access = Access,
>(
  spec: RouteSpec<BS, QS, PS, A>,
): RouteHandler => {
  let built: ApiHandler | undefined;
  const handler: ApiHandler = async (event, context) => {
    const result = await (built ??= buildChain(spec))(event, context);
    // The request log (GET /logs) of an authenticated team's request, once its answer is formed.
    const caller = requestState.get(event)?.auth;
    if (caller) await recordAnswer(getDeps(), event, caller, result);
    return result;
  };
  const { handler: _handler, ...route } = spec;
  return Object.assign(handler, { route: route as RouteDeclaration, run: (call: RouteCall) => runRoute(spec, call) });
};

/** The parts of a request the route's schemas read, however it arrived. */
interface RawInput {
  readonly routePath: string;
  readonly pathValues: Readonly<Record<string, string | undefined>>;
  readonly body: unknown;
  readonly query: Readonly<Record<string, string | undefined>>;
  readonly headers: Readonly<Record<string, string | undefined>>;
}

/** Validates a request's parts with the route's declaration (path-id bounds, body kind and schema, list conventions, query, path ids, headers). */
const parseInput = (
  spec: RouteSpec<any, any, any, any>,
  raw: RawInput,
): Pick<RequestState, 'body' | 'query' | 'params'> => {
  if (namesUnservedPath(raw.pathValues)) throw new ApiError('not_found', 'The requested endpoint does not exist.');
  checkPathIds(raw.routePath, raw.pathValues);
  let body = raw.body;
  if (spec.bodyFormat !== 'form') {
    checkBodyKind(spec.body, body);
    body = validate(spec.body ?? NoBody, absorbPathIds(raw.routePath, raw.pathValues, body));
  }
  if (answersList(spec.response)) checkListParams(raw.query);
  const query = spec.query ? validate(spec.query, raw.query, 'The query') : undefined;
  const params = spec.params ? validatePathIds(spec.params, raw.pathValues) : undefined;
  if (spec.headers) validate(spec.headers, raw.headers, 'The headers');
  return { body, query, params };
};

const runRoute = async (spec: RouteSpec<any, any, any, any>, call: RouteCall): Promise<unknown> => {
  if (spec.access !== 'public' && !call.caller)
    throw new ApiError('missing_api_key', 'This route needs an authenticated caller.');
  if (spec.bodyFormat === 'form')
    throw new Error(`${call.routeKey} takes an HTML form; only JSON routes can be called from another host`);
  const [method, routePath = ''] = call.routeKey.split(' ');
  const pathValues = call.pathParameters ?? {};
  const headers = call.headers ?? {};
  const input = parseInput(spec, { routePath, pathValues, body: call.body, query: call.query ?? {}, headers });
  // The few handlers that read the event read which route was called (the audience aliases).
  const event = {
    routeKey: call.routeKey,
    rawPath: routePath,
    headers,
    pathParameters: pathValues,
    requestContext: { http: { method } },
  } as unknown as ApiEvent;
  const out = await spec.handler({ ...input, auth: call.caller, deps: call.deps, event, headers } as RouteInput<
    any,
    any,
    any,
    any
  >);
  if (out instanceof RawResponse)
    throw new Error(`${call.routeKey} answers a raw response; only JSON routes can be called from another host`);
  return out instanceof JsonWithStatus ? out.body : out;
};

const buildChain = <
  BS extends v.GenericSchema | undefined,
  QS extends v.GenericSchema | undefined,
  PS extends v.GenericSchema | undefined,
  A extends Access,
>(
  spec: RouteSpec<BS, QS, PS, A>,
): ApiHandler => {
  const deps = () => getDeps();
  const authAndParse: MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> = {
    before: async function authAndParseBefore(request) {
      const d = deps();
      const event = request.event;
      d.logger.setCorrelationId(event.requestContext.requestId);
      const state: RequestState = {};
      requestState.set(event, state);
      const pathValues = event.pathParameters ?? {};
      if (namesUnservedPath(pathValues))
        throw endpointDoesNotExist(event.requestContext?.http?.method ?? '', event.rawPath ?? '');
      const routePath = event.routeKey.split(' ')[1] ?? '';
      checkPathIds(routePath, pathValues);
      if (spec.access !== 'public') {
        const { caller, counted } = await identify(d, event, spec.access);
        if (spec.rateCount === 'beside') {
          state.admitted = counted;
          state.auth = { ...caller, admitted: counted };
        } else {
          await counted;
          state.auth = caller;
        }
        // Exposed on the event so declarative middlewares (idempotency) can scope keys to the team.
        (event.requestContext as any).authorizer = { lambda: { teamId: state.auth.team.id, keyId: state.auth.keyId } };
      }
      const body =
        spec.bodyFormat === 'form'
          ? new URLSearchParams(
              event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64').toString('utf8') : (event.body ?? ''),
            )
          : readBody(event);
      Object.assign(
        state,
        parseInput(spec, {
          routePath,
          pathValues,
          body,
          query: event.queryStringParameters ?? {},
          headers: lowerCaseHeaders(event),
        }),
      );
    },
  };
  let chain = middy<ApiEvent, ApiResult, Error, ApiContext>()
    .use(injectLambdaContext(deps().logger, { resetKeys: true }))
    .use({ after: async () => flushMetrics(deps()), onError: async () => flushMetrics(deps()) })
    .use(mapErrors(deps))
    .use(authAndParse);
  for (const m of spec.middlewares ?? []) chain = chain.use(m);
  return chain.handler(async (event) => {
    const state = requestState.get(event) ?? {};
    const headers = lowerCaseHeaders(event);
    const out = await spec.handler({
      body: state.body as Out<BS>,
      query: state.query as Out<QS>,
      params: state.params as Out<PS>,
      auth: state.auth as any,
      deps: deps(),
      event,
      headers,
    });
    // A route counting beside its reads answers only once the count is in (429 when over).
    await state.admitted;
    if (out instanceof JsonWithStatus) return json(out.status, out.body);
    return out instanceof RawResponse ? out.result : json(spec.status ?? 200, out);
  });
};
