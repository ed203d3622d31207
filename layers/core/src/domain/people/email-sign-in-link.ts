import { signInLink } from './sign-in-link.ts';
import type { Deps } from '../../runtime/deps.ts';
import { findUserByEmail } from './user.ts';
import { issueToken } from './one-time-tokens.ts';
import { sendSystemEmail } from './system-mail.ts';
import { signInMessage } from './system-messages.ts';
import { keys } from '../../table/keys.ts';
import { addToCounters } from '../../table/ops.ts';
import { fixedWindow } from '../windows.ts';
import { sleepUntil } from '../../ports/clock.ts';
import { rateLimited } from '../../errors/api-error.ts';

/** Sign-in links one address may be sent, and one client may ask for, in a window. */
export const SIGN_IN_LINKS_PER_ADDRESS = 5;
export const SIGN_IN_LINKS_PER_SOURCE = 20;
const WINDOW_MS = 15 * 60_000;

/** Every answer takes at least this long, so its time does not tell whether the address has an account. */
const ANSWER_FLOOR_MS = 300;

/**
 * Emails a sign-in link and a password link to the address when it has an account; says
 * nothing either way (no account discovery through this form): every address counts alike, and
 * every answer takes at least ANSWER_FLOOR_MS. Past 5 links an address or 20 asks from a client
 * in 15 minutes, 429 until the window ends.
 */
export const emailSignInLink = async (deps: Deps, email: string, sourceIp: string): Promise<void> => {
  const started = deps.clock.now();
  try {
    const w = fixedWindow(started, WINDOW_MS);
    const counted = (key: { pk: string; sk: string }, limit: number) =>
      addToCounters(deps, key, {
        add: { asked: 1 },
        ceilings: { asked: limit },
        set: { type: 'sign_in_links' },
        expiresAt: w.expiresAt,
      });
    const [byAddress, bySource] = await Promise.all([
      counted(keys.signInLinks.byAddress(email.trim(), w.index), SIGN_IN_LINKS_PER_ADDRESS),
      counted(keys.signInLinks.bySource(sourceIp, w.index), SIGN_IN_LINKS_PER_SOURCE),
    ]);
    if (!byAddress || !bySource)
      throw rateLimited(
        'Too many sign-in links were asked for this address or from your network. Wait for the Retry-After seconds, or sign in with your password.',
        w.retryAfterSeconds,
      );
    const user = await findUserByEmail(deps, email);
    if (!user) return;
    const link = await signInLink(deps, user);
    const reset = `${deps.config.DASHBOARD_URL}/password/${await issueToken(deps, 'password_reset', { user_id: user.id })}`;
    await sendSystemEmail(deps, { to: user.email, ...signInMessage({ link, reset }) });
  } finally {
    await sleepUntil(deps.clock, started + ANSWER_FLOOR_MS);
  }
};
