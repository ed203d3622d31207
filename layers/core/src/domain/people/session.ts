import { createHash, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem } from '../../table/ops.ts';
import { getUser, type User } from './user.ts';

/** A session lasts this long after sign-in (the table's TTL removes it afterwards). */
export const SESSION_LIFETIME_SECONDS = 12 * 3600;

/** A signed-in session: the person and the CSRF token every form of the session carries. */
export interface Session {
  readonly user: User;
  readonly csrf: string;
  readonly expiresAt: number;
}

/** The stored form of a session id: the cookie's value itself is never stored. */
export const hashId = (id: string): string => createHash('sha256').update(id).digest('hex');

/** The session of a cookie value; undefined when unknown or expired. */
export const loadSession = async (deps: Deps, id: string | undefined): Promise<Session | undefined> => {
  if (!id || !/^[A-Za-z0-9_-]{20,100}$/.test(id)) return undefined;
  const item = await getItem(deps, keys.session.item(hashId(id)));
  if (!item || Number(item.expires_at) <= deps.clock.now() / 1000) return undefined;
  const user = await getUser(deps, item.user_id);
  return user ? { user, csrf: item.csrf, expiresAt: Number(item.expires_at) } : undefined;
};

/** True when a submitted CSRF token is the session's (constant-time). */
export const csrfMatches = (session: Session, submitted: unknown): boolean => {
  if (typeof submitted !== 'string') return false;
  const a = Buffer.from(session.csrf);
  const b = Buffer.from(submitted);
  return a.length === b.length && timingSafeEqual(a, b);
};
