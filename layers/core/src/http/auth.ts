import type { Deps } from '../runtime/deps.ts';
import { ApiError, rateLimited } from '../errors/api-error.ts';
import { findKeyBySecret } from '../domain/api-keys/manage-keys.ts';
import { getTeam, type Team } from '../domain/teams/team.ts';
import { countFailedAuth, countRequest } from '../domain/rate-limits/request-rate.ts';
import type { ApiKey } from '../domain/api-keys/api-key.ts';
import type { ApiEvent } from './types.ts';

/** Who is calling: the key and its team. */
export interface AuthContext {
  readonly key: ApiKey;
  readonly team: Team;
}

/** Which keys a route admits. */
export type Access = 'full' | 'sending' | 'public';

const bearer = (event: ApiEvent): string | undefined => {
  const header = event.headers?.authorization ?? event.headers?.Authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match?.[1]?.trim() ?? '';
};

const refuse = async (deps: Deps, event: ApiEvent, error: ApiError): Promise<never> => {
  const { blocked, retryAfter } = await countFailedAuth(deps, event.requestContext?.http?.sourceIp ?? 'unknown');
  if (blocked) throw rateLimited('Too many failed authentication attempts from this address. Check the API key, then retry after the Retry-After header\'s seconds.', retryAfter);
  throw error;
};

/**
 * Authenticates the bearer key, counts the request against the key's and team's windows, and
 * checks the key may use a route of `access` (spec §5: sending-access keys only reach the sending routes).
 */
export const authenticate = async (deps: Deps, event: ApiEvent, access: Exclude<Access, 'public'>): Promise<AuthContext> => {
  const secret = bearer(event);
  if (secret === undefined) {
    return refuse(deps, event, new ApiError('missing_api_key', 'Missing API key in the Authorization header. Send `Authorization: Bearer ms_...`.'));
  }
  const key = secret ? await findKeyBySecret(deps, secret) : undefined;
  if (!key || key.revoked) return refuse(deps, event, new ApiError('invalid_api_key', 'API key is invalid: it is unknown or has been revoked.'));
  // The team read and the request-rate count are independent: one round trip instead of two.
  const [team] = await Promise.all([getTeam(deps, key.teamId), countRequest(deps, key.teamId, key.id)]);
  if (!team) return refuse(deps, event, new ApiError('invalid_api_key', 'API key is invalid: its team no longer exists.'));
  if (access === 'full' && key.permission !== 'full_access') {
    throw new ApiError('restricted_api_key', 'This API key is restricted to sending emails; this endpoint needs a full-access key.');
  }
  return { key, team };
};
