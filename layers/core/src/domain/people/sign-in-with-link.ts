import type { Deps } from '../../runtime/deps.ts';
import { getUser, type User } from './user.ts';
import { consumeToken } from './one-time-tokens.ts';

/** Uses a sign-in link; the person, or undefined when it is unknown, used or expired. */
export const signInWithLink = async (deps: Deps, token: string): Promise<User | undefined> => {
  const data = await consumeToken(deps, token, 'sign_in');
  return data ? getUser(deps, data.user_id!) : undefined;
};
