import type { Deps } from '../runtime/deps.ts';
import { ApiError } from '../errors/api-error.ts';
import { identifyKey, refuseAuthentication } from '../domain/api-keys/authenticate-key.ts';
import type { Caller } from '../domain/caller.ts';
import type { ApiEvent } from './types.ts';

/** Which keys a route admits. */
export type Access = 'full' | 'sending' | 'public';

/**
 * The key the Authorization header carries: undefined when there is none (no header, an empty
 * one, or `Bearer` alone, as an SDK given an empty key sends), '' for any other scheme.
 */
const bearer = (event: ApiEvent): string | undefined => {
  const header = (event.headers?.authorization ?? event.headers?.Authorization)?.trim();
  if (!header || /^Bearer$/i.test(header)) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header);
  return match?.[1]?.trim() ?? '';
};

/**
 * Authenticates the bearer key, starts counting the request against the key's and team's
 * windows (`counted`, settling with the count), and checks the key may use a route of `access`
 * (spec §5: sending-access keys only reach the sending routes).
 */
export const identify = async (
  deps: Deps,
  event: ApiEvent,
  access: Exclude<Access, 'public'>,
): Promise<{ caller: Caller; counted: Promise<void> }> => {
  const sourceIp = event.requestContext?.http?.sourceIp ?? 'unknown';
  const secret = bearer(event);
  if (secret === undefined) {
    return refuseAuthentication(
      deps,
      sourceIp,
      new ApiError(
        'missing_api_key',
        'Missing API key in the Authorization header. Send `Authorization: Bearer ms_...`.',
      ),
    );
  }
  const identified = await identifyKey(deps, secret, sourceIp);
  if (access === 'full' && identified.caller.scope !== 'full_access') {
    // Over the rate limit, the 429 answers first, as when the count is awaited before this check.
    await identified.counted;
    throw new ApiError(
      'restricted_api_key',
      'This API key is restricted to sending emails; this endpoint needs a full-access key.',
    );
  }
  return identified;
};
