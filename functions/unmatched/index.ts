import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import type { ApiEvent, ApiResult } from '@mailstack/core/http/types';
import { normalisePath, unmatchedResponse } from '@mailstack/core/http/unmatched';
import { internalErrorResponse } from '@mailstack/core/http/respond';
import { AREA_FUNCTIONS_ENV, routeKey, routeMatcher, type Area } from '../routes.ts';

const match = routeMatcher();

/** Runs an area's function on an event and answers its result. */
export type InvokeArea = (area: Area, event: ApiEvent) => Promise<ApiResult>;

/**
 * The event API Gateway would have delivered had the request named the route's path exactly.
 * `rawPath` arrives percent-decoded, so the parameters read from it are taken as they are (a
 * second decoding would read an id sent as `%2541` as `A`).
 */
const eventFor = (event: ApiEvent, key: string, path: string, params: Readonly<Record<string, string>>): ApiEvent => {
  const pathParameters: Record<string, string> = { ...params };
  const { pathParameters: _ignored, ...rest } = event;
  return {
    ...rest,
    routeKey: key,
    rawPath: path,
    ...(Object.keys(pathParameters).length > 0 ? { pathParameters } : {}),
    requestContext: { ...event.requestContext, routeKey: key, http: { ...event.requestContext.http, path } },
  };
};

/**
 * The API's `$default` route on AWS. A path that names a route once its runs of slashes read as
 * one (`//emails`, from a base URL set with a trailing slash) is passed to that route's function,
 * which answers it as API Gateway would have routed it. Whatever else the manifest does not route
 * answers through the error catalog (404 not_found, or 405 method_not_allowed with the allowed
 * methods), exactly as the local host answers, instead of API Gateway's own bare 404.
 */
export const createUnmatchedHandler =
  (invoke: InvokeArea) =>
  async (event: ApiEvent): Promise<ApiResult> => {
    const method = event.requestContext?.http?.method ?? 'GET';
    const raw = event.rawPath ?? '/';
    const path = normalisePath(raw);
    const found = match(method, path);
    if (found && 'route' in found && path !== raw) {
      try {
        return await invoke(found.route.area, eventFor(event, routeKey(found.route), path, found.params));
      } catch (error) {
        console.error(
          JSON.stringify({
            level: 'ERROR',
            message: 'passing a request on to its route failed',
            route: routeKey(found.route),
            error: String(error),
          }),
        );
        return internalErrorResponse();
      }
    }
    return unmatchedResponse(method, path, found && 'allowed' in found ? found.allowed : []);
  };

let lambda: LambdaClient | undefined;
let functions: Partial<Record<Area, string>> | undefined;

/** Invokes the area's function synchronously (its name from AREA_FUNCTIONS); a function error is a 500 like any unhandled one. */
const invokeArea: InvokeArea = async (area, event) => {
  functions ??= JSON.parse(process.env[AREA_FUNCTIONS_ENV] ?? '{}') as Partial<Record<Area, string>>;
  const name = functions[area];
  if (!name) throw new Error(`${AREA_FUNCTIONS_ENV} names no function for the ${area} area`);
  lambda ??= new LambdaClient({});
  const out = await lambda.send(new InvokeCommand({ FunctionName: name, Payload: Buffer.from(JSON.stringify(event)) }));
  if (out.FunctionError) throw new Error(`the ${area} function failed: ${out.FunctionError}`);
  return JSON.parse(Buffer.from(out.Payload ?? new Uint8Array()).toString('utf8')) as ApiResult;
};

export const handler = createUnmatchedHandler(invokeArea);
