import { hashId, SESSION_LIFETIME_SECONDS } from './session.ts';
import { randomBytes } from 'node:crypto';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { putItem } from '../../table/ops.ts';

/** Starts a new session (always a new id: sign-in never reuses one) and returns its id for the cookie. */
export const startSession = async (deps: Deps, userId: string): Promise<{ id: string; csrf: string }> => {
  const id = randomBytes(32).toString('base64url');
  const csrf = randomBytes(24).toString('base64url');
  const expires = Math.floor(deps.clock.now() / 1000) + SESSION_LIFETIME_SECONDS;
  await putItem(
    deps,
    { ...keys.session.item(hashId(id)), type: 'session', user_id: userId, csrf, expires_at: expires, ttl: expires },
    { exists: false },
  );
  return { id, csrf };
};
