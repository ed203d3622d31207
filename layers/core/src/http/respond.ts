import type { ApiResult } from './types.ts';
import { ApiError } from '../errors/api-error.ts';

const JSON_HEADERS = { 'content-type': 'application/json' };

/** A JSON response: every 2xx carries a JSON body, DELETE included (the SDKs parse it). */
export const json = (statusCode: number, body: unknown, headers: Record<string, string> = {}): ApiResult => ({
  statusCode,
  headers: { ...JSON_HEADERS, ...headers },
  body: JSON.stringify(body),
});

/** The response for an error: the spec body, and any headers it carries (Retry-After). */
export const errorResponse = (error: ApiError): ApiResult =>
  json(error.statusCode, error.toJSON(), { ...error.headers });

/** The response for a fault that is not an ApiError: a generic 500, details stay in the log. */
export const internalErrorResponse = (): ApiResult =>
  errorResponse(
    new ApiError(
      'internal_server_error',
      'An unexpected error occurred. It has been logged; retry with backoff, or with the same Idempotency-Key for sends.',
    ),
  );

/** An HTML page (hosted preference and unsubscribe pages). */
export const html = (statusCode: number, body: string): ApiResult => ({
  statusCode,
  headers: {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'x-robots-tag': 'noindex',
    'referrer-policy': 'no-referrer',
  },
  body,
});
