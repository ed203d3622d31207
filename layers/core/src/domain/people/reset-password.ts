import { checkPassword } from './passwords.ts';
import type { Deps } from '../../runtime/deps.ts';
import { getUser, type User } from './user.ts';
import { setPassword } from './set-password.ts';
import { consumeToken } from './one-time-tokens.ts';

/** Sets a new password with a password link; the person, or undefined when the link is not valid. */
export const resetPassword = async (deps: Deps, token: string, password: string): Promise<User | undefined> => {
  checkPassword(password);
  const data = await consumeToken(deps, token, 'password_reset');
  if (!data) return undefined;
  await setPassword(deps, data.user_id!, password);
  return getUser(deps, data.user_id!);
};
