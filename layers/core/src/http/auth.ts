import type { Deps } from '../runtime/deps.ts';
import { ApiError } from '../errors/api-error.ts';
import { authenticateKey, refuseAuthentication } from '../domain/api-keys/authenticate-key.ts';
import type { Caller } from '../domain/caller.ts';
import type { ApiEvent } from './types.ts';

/** Which keys a route admits. */
export type Access = 'full' | 'sending' | 'public';

const bearer = (event: ApiEvent): string | undefined => {
  const header = event.headers?.authorization ?? event.headers?.Authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match?.[1]?.trim() ?? '';
};

/**
 * Authenticates the bearer key, counts the request against the key's and team's windows, and
 * checks the key may use a route of `access` (spec §5: sending-access keys only reach the sending routes).
 */
export const authenticate = async (deps: Deps, event: ApiEvent, access: Exclude<Access, 'public'>): Promise<Caller> => {
  const sourceIp = event.requestContext?.http?.sourceIp ?? 'unknown';
  const secret = bearer(event);
  if (secret === undefined) {
    return refuseAuthentication(deps, sourceIp, new ApiError('missing_api_key', 'Missing API key in the Authorization header. Send `Authorization: Bearer ms_...`.'));
  }
  const caller = await authenticateKey(deps, secret, sourceIp);
  if (access === 'full' && caller.scope !== 'full_access') {
    throw new ApiError('restricted_api_key', 'This API key is restricted to sending emails; this endpoint needs a full-access key.');
  }
  return caller;
};
