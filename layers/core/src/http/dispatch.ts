import { ApiError } from '../errors/api-error.ts';
import { errorResponse } from './respond.ts';
import type { ApiContext, ApiEvent, ApiHandler, ApiResult } from './types.ts';

/**
 * One Lambda entry per resource area: routes the API Gateway route key ("POST /domains/{id}")
 * to that route's handler.
 */
export const dispatch = (routes: Readonly<Record<string, ApiHandler>>): ApiHandler =>
  async function dispatchRoute(event: ApiEvent, context: ApiContext): Promise<ApiResult> {
    const route = routes[event.routeKey];
    if (!route) return errorResponse(new ApiError('not_found', `The requested endpoint does not exist: ${event.routeKey}.`));
    return route(event, context);
  };
