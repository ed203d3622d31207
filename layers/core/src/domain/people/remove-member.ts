import { keepAnOwner, loadMember, authorizeOn, type Actor } from './membership.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { transact } from '../../table/ops.ts';

/** Removes a member (the person's team count goes down in the same transaction). */
export const removeMember = async (deps: Deps, actor: Actor, userId: string): Promise<void> => {
  const target = await loadMember(deps, actor.team.id, userId);
  authorizeOn(actor, target);
  await keepAnOwner(deps, actor.team.id, target);
  await transact(deps, [
    { delete: keys.member.item(actor.team.id, userId), when: { exists: true } },
    { update: keys.user.item(userId), change: { add: { team_count: -1 } }, when: { exists: true } },
  ]);
};
