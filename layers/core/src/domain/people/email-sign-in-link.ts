import { signInLink } from './sign-in-link.ts';
import type { Deps } from '../../runtime/deps.ts';
import { findUserByEmail } from './user.ts';
import { issueToken } from './one-time-tokens.ts';
import { sendSystemEmail } from './system-mail.ts';
import { signInMessage } from './system-messages.ts';

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
