import { checkPassword, hashPassword } from './passwords.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { updateItem } from '../../table/ops.ts';

/** Sets a new password. */
export const setPassword = async (deps: Deps, userId: string, password: string): Promise<void> => {
  checkPassword(password);
  await updateItem(deps, keys.user.item(userId), { set: { password: await hashPassword(password) } }, { exists: true });
};
