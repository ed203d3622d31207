import { ApiError } from '../errors/api-error.ts';
import { errorResponse } from './respond.ts';
import type { RouteHandler } from './api-route.ts';
import type { ApiContext, ApiEvent, ApiHandler, ApiResult } from './types.ts';

/** An area's Lambda entry, carrying its routes by route key (the OpenAPI generator reads their declarations). */
export type AreaHandler = ApiHandler & { readonly routes: Readonly<Record<string, RouteHandler>> };

/**
 * One Lambda entry per resource area: routes the API Gateway route key ("POST /domains/{id}")
 * to that route's handler.
 */
export const dispatch = (routes: Readonly<Record<string, RouteHandler>>): AreaHandler =>
  Object.assign(
    async function dispatchRoute(event: ApiEvent, context: ApiContext): Promise<ApiResult> {
      const route = routes[event.routeKey];
      if (!route)
        return errorResponse(new ApiError('not_found', `The requested endpoint does not exist: ${event.routeKey}.`));
      return route(event, context);
    },
    { routes },
  );
