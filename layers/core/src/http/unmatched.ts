import { ApiError } from '../errors/api-error.ts';
import { errorResponse } from './respond.ts';
import type { ApiResult } from './types.ts';

/**
 * The answer to a request no route takes, through the error catalog, on every host: 405
 * method_not_allowed naming the methods the path allows (in the message and the Allow header,
 * RFC 9110 §15.5.6), else 404 not_found.
 */
export const unmatchedResponse = (method: string, path: string, allowed: readonly string[]): ApiResult =>
  errorResponse(
    allowed.length > 0
      ? new ApiError(
          'method_not_allowed',
          `Method ${method} is not allowed for ${path}; allowed: ${allowed.join(', ')}.`,
          {
            headers: { Allow: allowed.join(', ') },
          },
        )
      : new ApiError('not_found', `The requested endpoint does not exist: ${method} ${path}.`),
  );

/**
 * A request path with each run of slashes read as one: `//emails` (an SDK's base URL set with a
 * trailing slash, joined to a path with a leading one) is `/emails`, on every host.
 */
export const normalisePath = (path: string): string => path.replace(/\/{2,}/g, '/');
