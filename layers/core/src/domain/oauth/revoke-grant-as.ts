import { revokeGrant, getGrant, type OAuthGrant } from './grant.ts';
import type { Deps } from '../../runtime/deps.ts';
import { notFound } from '../../errors/api-error.ts';
import { authorize } from '../people/roles.ts';
import type { Actor } from '../people/membership.ts';

/**
 * Revokes a grant from the dashboard: a person revokes their own grants; owners and admins
 * (`keys:write`) any grant of the team. 404 when it is not the team's.
 */
export const revokeGrantAs = async (deps: Deps, actor: Actor, grantId: string): Promise<OAuthGrant> => {
  const grant = /^[0-9a-f-]{36}$/.test(grantId) ? await getGrant(deps, actor.team.id, grantId) : undefined;
  if (!grant) throw notFound('OAuth grant');
  if (grant.userId !== actor.user.id) authorize(actor.role, 'keys:write');
  return revokeGrant(deps, actor.team.id, grantId, 'revoked_by_user');
};
