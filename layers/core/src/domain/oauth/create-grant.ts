import type { OAuthGrant } from './grant.ts';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { putItem } from '../../table/ops.ts';

/** Records a new grant. */
export const createGrant = async (
  deps: Deps,
  g: Omit<OAuthGrant, 'id' | 'createdAt' | 'revokedAt' | 'revokedReason' | 'mailboxIds'> & { mailboxIds?: string[] },
): Promise<OAuthGrant> => {
  const grant: OAuthGrant = {
    ...g,
    mailboxIds: g.mailboxIds ?? [],
    id: deps.ids.next(),
    createdAt: new Date(deps.clock.now()).toISOString(),
    revokedAt: null,
    revokedReason: null,
  };
  await putItem(
    deps,
    {
      ...keys.oauth.grant(grant.teamId, grant.id),
      type: 'oauth_grant',
      id: grant.id,
      team_id: grant.teamId,
      user_id: grant.userId,
      client_id: grant.clientId,
      client_name: grant.clientName,
      client_logo_uri: grant.clientLogoUri,
      scopes: grant.scopes,
      mailbox_ids: grant.mailboxIds,
      resource: grant.resource,
      created_at: grant.createdAt,
    },
    { exists: false },
  );
  return grant;
};
