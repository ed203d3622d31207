import { decoyHash, verifyPassword } from './passwords.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { addToCounters, getItem } from '../../table/ops.ts';
import { fixedWindow } from '../windows.ts';
import { rateLimited } from '../../errors/api-error.ts';
import { countFailedAuth } from '../rate-limits/request-rate.ts';
import { findUserItemByEmail, userFromItem, type User } from './user.ts';

/** Failed password sign-ins allowed per address in one window, before the address is locked until the window ends. */
const SIGN_IN_FAILURES_PER_WINDOW = 10;

const WINDOW_MS = 15 * 60_000;

const locked = (retryAfter: number) =>
  rateLimited(
    'Too many failed sign-ins for this address or from your network. Wait for the Retry-After seconds, or ask for a sign-in link by email.',
    retryAfter,
  );

/**
 * Signs a person in with email and password. Failures count per address (10 per 15 minutes)
 * and per client address (the API's failed-authentication window, 20 per minute); past either,
 * even the right password is refused with 429 until the window ends.
 */
export const signInWithPassword = async (
  deps: Deps,
  input: { email: string; password: string; sourceIp: string },
): Promise<User | undefined> => {
  const w = fixedWindow(deps.clock.now(), WINDOW_MS);
  const counter = keys.signInFailures.window(input.email.trim(), w.index);
  const before = await getItem(deps, counter);
  if (Number(before?.failures ?? 0) >= SIGN_IN_FAILURES_PER_WINDOW) throw locked(w.retryAfterSeconds);
  const item = await findUserItemByEmail(deps, input.email);
  const ok = await verifyPassword(input.password, item?.password ?? (await decoyHash()));
  if (item && ok) return userFromItem(item);
  await addToCounters(deps, counter, {
    add: { failures: 1 },
    set: { type: 'sign_in_failures' },
    expiresAt: w.expiresAt,
  });
  const ip = await countFailedAuth(deps, input.sourceIp);
  if (ip.blocked) throw locked(ip.retryAfter);
  return undefined;
};
