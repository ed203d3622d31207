import middy, { type MiddlewareObj } from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import * as v from 'valibot';
import { getDeps, type Deps } from '../runtime/deps.ts';
import { ApiError, isApiError } from '../errors/api-error.ts';
import { authenticate, type Access } from './auth.ts';
import type { Caller } from '../domain/caller.ts';
import { BODY_TOO_LARGE_MESSAGE, MAX_BODY_BYTES } from '../limits.ts';
import { errorResponse, internalErrorResponse, json } from './respond.ts';
import { validate } from '../schemas/validate.ts';
import type { ApiContext, ApiEvent, ApiResult } from './types.ts';

/** What a route's handler receives: validated input, the caller, and the dependencies. */
export interface RouteInput<B, Q, P, A> {
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

type Out<S> = S extends v.GenericSchema ? v.InferOutput<S> : any;

/** The declaration of one route: who may call it, its schemas, and its handler. */
export interface RouteSpec<BS, QS, PS, A extends Access> {
  readonly access: A;
  readonly body?: BS;
  readonly query?: QS;
  readonly params?: PS;
  /** Success status. @default - 200 */
  readonly status?: number;
  /** How the body is encoded: JSON, or an HTML form (application/x-www-form-urlencoded). @default - 'json' */
  readonly bodyFormat?: 'json' | 'form';
  /** Extra middy middlewares, run after authentication and parsing (idempotency). */
  readonly middlewares?: readonly MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext>[];
  readonly handler: (input: RouteInput<Out<BS>, Out<QS>, Out<PS>, A extends 'public' ? undefined : Caller>) => Promise<unknown>;
}

/** The parsed request a route's middlewares share through the Lambda context. */
export interface RequestState {
  auth?: Caller;
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

const NoBody = v.optional(v.strictObject({}, 'This endpoint takes no request body.'));

const mapErrors = (deps: () => Deps): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> => ({
  onError: async function mapErrorsOnError(request) {
    const error = request.error;
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
 * plain object (sent as JSON with `status`) or a RawResponse.
 */
export const apiRoute = <BS extends v.GenericSchema | undefined = undefined, QS extends v.GenericSchema | undefined = undefined, PS extends v.GenericSchema | undefined = undefined, A extends Access = Access>(
  spec: RouteSpec<BS, QS, PS, A>,
) => {
  const deps = () => getDeps();
  const authAndParse: MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> = {
    before: async function authAndParseBefore(request) {
      const d = deps();
      const event = request.event;
      const state: RequestState = {};
      requestState.set(event, state);
      if (spec.access !== 'public') {
        state.auth = await authenticate(d, event, spec.access);
        // Exposed on the event so declarative middlewares (idempotency) can scope keys to the team.
        (event.requestContext as any).authorizer = { lambda: { teamId: state.auth.team.id, keyId: state.auth.keyId } };
      }
      state.body = spec.bodyFormat === 'form'
        ? new URLSearchParams(event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64').toString('utf8') : event.body ?? '')
        : validate(spec.body ?? NoBody, readBody(event));
      state.query = spec.query ? validate(spec.query, event.queryStringParameters ?? {}) : undefined;
      state.params = spec.params ? validate(spec.params, event.pathParameters ?? {}) : undefined;
    },
  };
  let chain = middy<ApiEvent, ApiResult, Error, ApiContext>()
    .use(injectLambdaContext(deps().logger, { resetKeys: true }))
    .use(mapErrors(deps))
    .use(authAndParse);
  for (const m of spec.middlewares ?? []) chain = chain.use(m);
  return chain.handler(async (event) => {
    const state = requestState.get(event) ?? {};
    const headers = Object.fromEntries(Object.entries(event.headers ?? {}).map(([k, val]) => [k.toLowerCase(), val]));
    const out = await spec.handler({
      body: state.body as Out<BS>,
      query: state.query as Out<QS>,
      params: state.params as Out<PS>,
      auth: state.auth as any,
      deps: deps(),
      event,
      headers,
    });
    return out instanceof RawResponse ? out.result : json(spec.status ?? 200, out);
  });
};
