import { hashId } from './session.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { deleteItem } from '../../table/ops.ts';

/** Ends a session (sign-out). */
export const endSession = async (deps: Deps, id: string | undefined): Promise<void> => {
  if (id && /^[A-Za-z0-9_-]{20,100}$/.test(id)) await deleteItem(deps, keys.session.item(hashId(id)));
};
