import type { ApiEvent, ApiResult } from '@mailstack/core/http/types';
import type { Requester } from '@mailstack/core/domain/tracking/record';

/** A plain 404 for an unknown or tampered token (no JSON, no hint). */
export const notFoundText = (): ApiResult => ({
  statusCode: 404,
  headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  body: 'Not found',
});

/** The fetching client: its address and user agent. */
export const requesterOf = (event: ApiEvent, headers: Readonly<Record<string, string | undefined>>): Requester => ({
  ipAddress: event.requestContext?.http?.sourceIp ?? '',
  userAgent: headers['user-agent'] ?? '',
});
