import { checkPassword, hashPassword } from './passwords.ts';
import { userFromItem, normalizeEmail, type User } from './user.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { transact } from '../../table/ops.ts';
import { ApiError } from '../../errors/api-error.ts';

/** Creates a person; 409 conflict when the address already has an account. */
export const createUser = async (
  deps: Deps,
  input: { email: string; name?: string; password?: string | undefined },
): Promise<User> => {
  const email = normalizeEmail(input.email);
  if (input.password !== undefined) checkPassword(input.password);
  const id = deps.ids.next();
  const item = {
    ...keys.user.item(id),
    type: 'user',
    id,
    email,
    name: (input.name ?? '').trim().slice(0, 100),
    team_count: 0,
    password: input.password === undefined ? null : await hashPassword(input.password),
    created_at: new Date(deps.clock.now()).toISOString(),
  };
  const out = await transact(deps, [
    { put: { ...keys.user.emailGuard(email), type: 'user_email', user_id: id }, when: { exists: false } },
    { put: item, when: { exists: false } },
  ]);
  if (!out.ok)
    throw new ApiError('conflict', `An account for ${email} already exists; sign in, or ask for a sign-in link.`);
  return userFromItem(item);
};
