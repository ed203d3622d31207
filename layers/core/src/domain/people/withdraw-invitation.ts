import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { deleteItem } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';
import { authorize } from './roles.ts';
import type { Actor } from './membership.ts';

/** Withdraws an invitation (members:write). */
export const withdrawInvitation = async (deps: Deps, actor: Actor, id: string): Promise<void> => {
  authorize(actor.role, 'members:write');
  if (!(await deleteItem(deps, keys.invitation.item(actor.team.id, id), { exists: true })))
    throw notFound('Invitation');
};
