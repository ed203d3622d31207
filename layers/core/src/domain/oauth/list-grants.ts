import { grantFromItem, type OAuthGrant } from './grant.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { queryAll } from '../../table/ops.ts';

/** The grants of a team, newest first (revoked ones too: the list shows when and why). */
export const listGrants = async (deps: Deps, teamId: string): Promise<OAuthGrant[]> => {
  const items = await queryAll(deps, { pk: keys.oauth.grantPartition(teamId), prefix: keys.oauth.grantPrefix });
  return items.map(grantFromItem).sort((a, b) => (a.id < b.id ? 1 : -1));
};
