import { checkPassword, decoyHash, verifyPassword } from './passwords.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { addToCounters, getItem } from '../../table/ops.ts';
import { fixedWindow } from '../windows.ts';
import { rateLimited } from '../../errors/api-error.ts';
import { countFailedAuth } from '../rate-limits/request-rate.ts';
import { findUserByEmail, findUserItemByEmail, getUser, userFromItem, type User } from './user.ts';
import { setPassword } from './set-password.ts';
import { consumeToken, issueToken } from './one-time-tokens.ts';
import { sendSystemEmail } from './system-mail.ts';
import { signInMessage } from './system-messages.ts';

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

/** A one-time sign-in link for a person (the admin CLI, `npm start`, the "email me a link" form). */
export const signInLink = async (deps: Deps, user: User): Promise<string> =>
  `${deps.config.DASHBOARD_URL}/sign-in/link/${await issueToken(deps, 'sign_in', { user_id: user.id })}`;

/** Uses a sign-in link; the person, or undefined when it is unknown, used or expired. */
export const signInWithLink = async (deps: Deps, token: string): Promise<User | undefined> => {
  const data = await consumeToken(deps, token, 'sign_in');
  return data ? getUser(deps, data.user_id!) : undefined;
};

/**
 * Emails a sign-in link and a password link to the address when it has an account; says
 * nothing either way (no account discovery through this form).
 */
export const emailSignInLink = async (deps: Deps, email: string): Promise<void> => {
  const user = await findUserByEmail(deps, email);
  if (!user) return;
  const link = await signInLink(deps, user);
  const reset = `${deps.config.DASHBOARD_URL}/password/${await issueToken(deps, 'password_reset', { user_id: user.id })}`;
  await sendSystemEmail(deps, { to: user.email, ...signInMessage({ link, reset }) });
};

/** Sets a new password with a password link; the person, or undefined when the link is not valid. */
export const resetPassword = async (deps: Deps, token: string, password: string): Promise<User | undefined> => {
  checkPassword(password);
  const data = await consumeToken(deps, token, 'password_reset');
  if (!data) return undefined;
  await setPassword(deps, data.user_id!, password);
  return getUser(deps, data.user_id!);
};
