import { keepAnOwner, loadMember, authorizeOn, membershipFromItem, type Actor, type Membership } from './membership.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { updateItem } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';
import type { Role } from './roles.ts';

/** Changes a member's role. */
export const changeRole = async (deps: Deps, actor: Actor, userId: string, role: Role): Promise<Membership> => {
  const target = await loadMember(deps, actor.team.id, userId);
  authorizeOn(actor, target, role);
  if (target.role !== role) await keepAnOwner(deps, actor.team.id, target);
  const out = await updateItem(deps, keys.member.item(actor.team.id, userId), { set: { role } }, { exists: true });
  if (!out) throw notFound('Member');
  return membershipFromItem(out);
};
