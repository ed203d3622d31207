import type { Deps } from '../../runtime/deps.ts';
import { ApiError, rateLimited } from '../../errors/api-error.ts';
import { countFailedAuth, countRequest, type AuthSurface } from '../rate-limits/request-rate.ts';
import { getCachedTeam } from '../teams/team.ts';
import { callerOfKey, type Caller } from '../caller.ts';
import { findKeyBySecret } from './find-key.ts';

/**
 * Records a failed authentication from `sourceIp` and throws: `error`, or 429 once the address
 * is over the failed-authentication limit (spec §5 rule 5). Every host (HTTP API, SMTP relay)
 * counts into the same per-address window.
 */
export const refuseAuthentication = async (deps: Deps, sourceIp: string, error: ApiError): Promise<never> => {
  await countFailedAuthentication(deps, sourceIp);
  throw error;
};

/**
 * Counts one failed authentication from `sourceIp` on `surface` and throws 429 once the address
 * is over the limit there; `credential` names what to check in the message.
 */
export const countFailedAuthentication = async (
  deps: Deps,
  sourceIp: string,
  surface: AuthSurface = 'api',
  credential = 'the API key',
): Promise<void> => {
  const { blocked, retryAfter } = await countFailedAuth(deps, sourceIp, surface);
  if (blocked)
    throw rateLimited(
      `Too many failed authentication attempts from this address. Check ${credential}, then retry after the Retry-After header's seconds.`,
      retryAfter,
    );
};

const invalidKey = (why: string) => new ApiError('invalid_api_key', `API key is invalid: ${why}.`);

/**
 * Resolves a presented key secret to the caller it stands for: its team, scope and domain
 * restriction (spec §5 rule 3: unknown, revoked or orphaned keys are 401 invalid_api_key and
 * count as failed authentications), and starts counting one request against the key's and
 * team's windows (spec §8). `counted` settles once the count is in and the table has confirmed
 * the key, rejecting with 429 when over or 401 when the key was revoked elsewhere a moment ago
 * (spec §5 rule 2: revocation takes effect at once), so a host may read beside it and await it
 * before its first write and its answer.
 */
export const identifyKey = async (
  deps: Deps,
  secret: string,
  sourceIp: string,
): Promise<{ caller: Caller; counted: Promise<void> }> => {
  const found = secret ? await findKeyBySecret(deps, secret) : undefined;
  if (!found || found.key.revoked)
    return refuseAuthentication(deps, sourceIp, invalidKey('it is unknown or has been revoked'));
  const { key, current } = found;
  const counted = Promise.allSettled([current, countRequest(deps, key.teamId, key.id)]).then(([now, count]) => {
    if (now.status === 'rejected') throw now.reason;
    if (!now.value || now.value.revoked)
      return refuseAuthentication(deps, sourceIp, invalidKey('it is unknown or has been revoked'));
    if (count.status === 'rejected') throw count.reason;
  });
  // Settled by whoever awaits it; never an unhandled rejection while the team is read.
  counted.catch(() => undefined);
  const team = await getCachedTeam(deps, key.teamId);
  if (!team) return refuseAuthentication(deps, sourceIp, invalidKey('its team no longer exists'));
  return { caller: callerOfKey(key, team), counted };
};

/** identifyKey, with the request counted before it returns. */
export const authenticateKey = async (deps: Deps, secret: string, sourceIp: string): Promise<Caller> => {
  const { caller, counted } = await identifyKey(deps, secret, sourceIp);
  await counted;
  return caller;
};
