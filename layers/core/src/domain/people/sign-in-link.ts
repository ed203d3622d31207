import type { Deps } from '../../runtime/deps.ts';
import type { User } from './user.ts';
import { issueToken } from './one-time-tokens.ts';

/** A one-time sign-in link for a person (the admin CLI, `npm start`, the "email me a link" form). */
export const signInLink = async (deps: Deps, user: User): Promise<string> =>
  `${deps.config.DASHBOARD_URL}/sign-in/link/${await issueToken(deps, 'sign_in', { user_id: user.id })}`;
