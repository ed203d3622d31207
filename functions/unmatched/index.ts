import type { ApiEvent, ApiResult } from '@mailstack/core/http/types';
import { unmatchedResponse } from '@mailstack/core/http/unmatched';
import { routeMatcher } from '../routes.ts';

const match = routeMatcher();

/**
 * The API's `$default` route on AWS: whatever the manifest does not route answers through the
 * error catalog (404 not_found, or 405 method_not_allowed with the allowed methods), exactly as
 * the local host answers, instead of API Gateway's own bare 404.
 */
export const handler = async (event: ApiEvent): Promise<ApiResult> => {
  const method = event.requestContext?.http?.method ?? 'GET';
  const path = event.rawPath ?? '/';
  const found = match(method, path);
  return unmatchedResponse(method, path, found && 'allowed' in found ? found.allowed : []);
};
