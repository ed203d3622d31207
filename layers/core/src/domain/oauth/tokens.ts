import { createHash, randomBytes } from 'node:crypto';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, putItem, updateItem } from '../../table/ops.ts';
import { getGrant, revokeGrant, type OAuthGrant } from './grant.ts';
import { OAuthError } from './oauth-error.ts';
import { findMembership } from '../people/membership.ts';
import { roleMayGrant, type Scope } from './scopes.ts';

/**
 * Access and refresh tokens of the hosted MCP server: opaque, 256 random bits, stored only as
 * their SHA-256 (a leaked table holds no usable token). Every use reads the token and its grant,
 * so a revoked grant stops its tokens on the next call. Access tokens are short-lived
 * (OAUTH_ACCESS_TOKEN_SECONDS) and bound to one resource (RFC 8707); refresh tokens exist only
 * for grants with `offline_access`, are rotated on every use, and a second use of a rotated one
 * revokes the whole grant (OAuth 2.1 §4.3.1, refresh token reuse detection).
 */

/** Who an accepted access token stands for. */
export type OAuthPrincipal = {
  grantId: string;
  clientId: string;
  teamId: string;
  userId: string;
  /** The scopes the grant lends now: those of `granted` the person's current role still allows. */
  scopes: string[];
  /** Every scope the person granted at consent (a role change may hold some back: `scopes`). */
  granted: string[];
  mailboxIds: string[];
};

const ACCESS_PREFIX = 'mcp_at_';
const REFRESH_PREFIX = 'mcp_rt_';
const TOKEN_SHAPE = /^mcp_(at|rt)_[A-Za-z0-9_-]{43}$/;

/** The stored hash of a secret (a code or a token). */
export const secretHash = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** A new high-entropy secret with a prefix telling what it is. */
export const newSecret = (prefix: string): string => `${prefix}${randomBytes(32).toString('base64url')}`;

const nowSeconds = (deps: Deps): number => Math.floor(deps.clock.now() / 1000);

/** The token response of RFC 6749 §5.1. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  refresh_token?: string;
}

/** Issues an access token (and a refresh token when the grant has `offline_access`) under a grant. */
export const issueTokens = async (
  deps: Deps,
  grant: OAuthGrant,
  /** A narrower scope the client asked for on refresh (RFC 6749 §6): this access token lends only it. */
  narrowed?: readonly string[],
): Promise<TokenResponse> => {
  const now = nowSeconds(deps);
  const accessLifetime = deps.config.OAUTH_ACCESS_TOKEN_SECONDS;
  const access = newSecret(ACCESS_PREFIX);
  const common = {
    type: 'oauth_token',
    team_id: grant.teamId,
    grant_id: grant.id,
    client_id: grant.clientId,
    user_id: grant.userId,
  };
  const writes = [
    putItem(
      deps,
      {
        ...keys.oauth.accessToken(secretHash(access)),
        ...common,
        resource: grant.resource,
        ...(narrowed ? { scopes: [...narrowed] } : {}),
        expires_at: now + accessLifetime,
        ttl: now + accessLifetime,
      },
      { exists: false },
    ),
  ];
  let refresh: string | undefined;
  if (grant.scopes.includes('offline_access')) {
    refresh = newSecret(REFRESH_PREFIX);
    const until = now + deps.config.OAUTH_REFRESH_TOKEN_SECONDS;
    writes.push(
      putItem(
        deps,
        { ...keys.oauth.refreshToken(secretHash(refresh)), ...common, expires_at: until, ttl: until },
        { exists: false },
      ),
    );
  }
  await Promise.all(writes);
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: accessLifetime,
    scope: (narrowed ?? grant.scopes).join(' '),
    ...(refresh ? { refresh_token: refresh } : {}),
  };
};

/**
 * The principal of an access token presented to `resource`; null when the token is unknown,
 * expired, revoked (its grant), bound to another resource, or its person is no longer in the
 * team. Its scopes are the grant's that the person's current role still allows. Never throws
 * for a bad token.
 */
export const verifyAccessToken = async (
  deps: Deps,
  token: string,
  resource: string,
): Promise<OAuthPrincipal | null> => {
  if (!TOKEN_SHAPE.test(token) || !token.startsWith(ACCESS_PREFIX)) return null;
  const item = await getItem(deps, keys.oauth.accessToken(secretHash(token)));
  if (!item || Number(item.expires_at) <= nowSeconds(deps) || item.resource !== resource) return null;
  const [grant, membership] = await Promise.all([
    getGrant(deps, item.team_id, item.grant_id),
    findMembership(deps, item.team_id, item.user_id),
  ]);
  if (!grant || grant.revokedAt || grant.resource !== resource || !membership) return null;
  // A person who left the team, or whose role no longer allows a scope, no longer lends it.
  const lent = (item.scopes as Scope[] | undefined) ?? grant.scopes;
  return {
    grantId: grant.id,
    clientId: grant.clientId,
    teamId: grant.teamId,
    userId: grant.userId,
    scopes: lent.filter((s) => roleMayGrant(membership.role, s)),
    granted: lent,
    mailboxIds: grant.mailboxIds,
  };
};

/**
 * The refresh_token grant (RFC 6749 §6): rotates the refresh token (the presented one is marked
 * used in a conditional write, so two uses cannot both pass) and issues new tokens. A second use
 * of a rotated token revokes the grant: whoever holds the old token, the grant is no longer safe.
 */
export const refreshTokens = async (
  deps: Deps,
  refreshToken: string,
  clientId: string,
  resource: string | undefined,
  /** The `scope` parameter: the same as granted when absent, else a part of it (RFC 6749 §6). */
  scope?: string,
): Promise<TokenResponse> => {
  const invalid = (why: string) => new OAuthError('invalid_grant', `The refresh_token ${why}; authorize again.`);
  if (!TOKEN_SHAPE.test(refreshToken) || !refreshToken.startsWith(REFRESH_PREFIX))
    throw invalid('is not one this server issued');
  const key = keys.oauth.refreshToken(secretHash(refreshToken));
  const item = await getItem(deps, key);
  if (!item || Number(item.expires_at) <= nowSeconds(deps)) throw invalid('is unknown or expired');
  if (item.client_id !== clientId) throw invalid('was issued to another client_id');
  const grant = await getGrant(deps, item.team_id, item.grant_id);
  if (!grant || grant.revokedAt) throw invalid('belongs to a revoked grant');
  if (resource !== undefined && resource !== grant.resource)
    throw new OAuthError(
      'invalid_target',
      `The resource ${resource} is not the one this grant is for (${grant.resource}).`,
    );
  const asked = scope?.split(' ').filter(Boolean);
  const beyond = asked?.filter((s) => !(grant.scopes as string[]).includes(s)) ?? [];
  if (beyond.length > 0)
    throw new OAuthError(
      'invalid_scope',
      `The scope ${beyond.join(' ')} was not granted to this refresh token (granted: ${grant.scopes.join(' ')}); a refresh may only ask for those or fewer.`,
    );
  const rotated = await updateItem(
    deps,
    key,
    { set: { used_at: nowSeconds(deps) } },
    { attr: 'used_at', absent: true },
  );
  if (!rotated) {
    await revokeGrant(deps, grant.teamId, grant.id, 'refresh_token_reused');
    throw invalid(
      'was already used (refresh tokens are single-use); the grant has been revoked because a used refresh token came back',
    );
  }
  return issueTokens(deps, grant, asked && asked.length > 0 ? asked : undefined);
};

/**
 * Token revocation (RFC 7009): a refresh token revokes its grant; an access token stops at
 * once. Unknown tokens are accepted silently, as the RFC asks.
 */
export const revokeToken = async (deps: Deps, token: string, clientId: string): Promise<void> => {
  if (!TOKEN_SHAPE.test(token)) return;
  const key = token.startsWith(REFRESH_PREFIX)
    ? keys.oauth.refreshToken(secretHash(token))
    : keys.oauth.accessToken(secretHash(token));
  const item = await getItem(deps, key);
  if (!item || item.client_id !== clientId) return;
  if (token.startsWith(REFRESH_PREFIX)) await revokeGrant(deps, item.team_id, item.grant_id, 'revoked_by_client');
  else await updateItem(deps, key, { set: { expires_at: 0 } });
};
