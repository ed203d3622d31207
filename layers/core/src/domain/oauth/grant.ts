import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, updateItem, type Item } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';
import type { Scope } from './scopes.ts';

/**
 * A grant: what one person allowed one OAuth client to do in one team (the consent), held by
 * every token issued under it. Revoking the grant stops every one of its tokens on their next
 * use (each use reads the grant).
 */
export interface OAuthGrant {
  readonly id: string;
  readonly teamId: string;
  readonly userId: string;
  readonly clientId: string;
  readonly clientName: string;
  readonly clientLogoUri: string | null;
  readonly scopes: Scope[];
  /** The mailboxes the mail:* scopes act in (chosen at consent; empty without mail:* scopes). */
  readonly mailboxIds: string[];
  /** The resource (RFC 8707) its access tokens are bound to. */
  readonly resource: string;
  readonly createdAt: string;
  readonly revokedAt: string | null;
  readonly revokedReason: string | null;
}

export const grantFromItem = (i: Item): OAuthGrant => ({
  id: i.id,
  teamId: i.team_id,
  userId: i.user_id,
  clientId: i.client_id,
  clientName: i.client_name,
  clientLogoUri: i.client_logo_uri ?? null,
  scopes: i.scopes ?? [],
  mailboxIds: i.mailbox_ids ?? [],
  resource: i.resource,
  createdAt: i.created_at,
  revokedAt: i.revoked_at ?? null,
  revokedReason: i.revoked_reason ?? null,
});

/** A grant of a team, revoked or not; undefined when it is not the team's. */
export const getGrant = async (deps: Deps, teamId: string, grantId: string): Promise<OAuthGrant | undefined> => {
  const item = await getItem(deps, keys.oauth.grant(teamId, grantId));
  return item ? grantFromItem(item) : undefined;
};

/** Why a grant was revoked. */
type RevokedReason = 'revoked_by_user' | 'revoked_by_api' | 'refresh_token_reused' | 'revoked_by_client';

/**
 * Revokes a grant (idempotent: a second revocation keeps the first time and reason). 404 when
 * the grant is not the team's.
 */
export const revokeGrant = async (
  deps: Deps,
  teamId: string,
  grantId: string,
  reason: RevokedReason,
): Promise<OAuthGrant> => {
  const at = new Date(deps.clock.now()).toISOString();
  const out = await updateItem(
    deps,
    keys.oauth.grant(teamId, grantId),
    { set: { revoked_at: at, revoked_reason: reason } },
    { and: [{ exists: true }, { attr: 'revoked_at', absent: true }] },
  );
  if (out) return grantFromItem(out);
  const existing = await getGrant(deps, teamId, grantId);
  if (!existing) throw notFound('OAuth grant');
  return existing;
};

/** A grant as the API shows it (the shape of the SDK's `OAuthGrant`). */
export const grantView = (g: OAuthGrant) => ({
  id: g.id,
  client_id: g.clientId,
  scopes: [...g.scopes],
  created_at: g.createdAt,
  revoked_at: g.revokedAt,
  revoked_reason: g.revokedReason,
  client: { name: g.clientName, logo_uri: g.clientLogoUri },
});
