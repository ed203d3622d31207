import { nowSeconds } from './authorization.ts';
import { createHash } from 'node:crypto';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, updateItem } from '../../table/ops.ts';
import { OAUTH_CODE_SECONDS } from '../../limits.ts';
import { createGrant } from './create-grant.ts';
import { revokeGrant } from './grant.ts';
import { OAuthError } from './oauth-error.ts';
import { issueTokens, secretHash, type TokenResponse } from './tokens.ts';

/** The token request of the authorization_code grant (RFC 6749 §4.1.3, RFC 7636 §4.5, RFC 8707). */
export interface CodeExchange {
  readonly code?: string | undefined;
  readonly redirectUri?: string | undefined;
  readonly clientId?: string | undefined;
  readonly codeVerifier?: string | undefined;
  readonly resource?: string | undefined;
}

/**
 * Trades a code for tokens, once. The code is used up by the first attempt whatever its
 * outcome (a wrong verifier cannot be retried); a code presented again after it was traded
 * revokes the grant it produced (RFC 6749 §4.1.2).
 */
export const exchangeCode = async (deps: Deps, r: CodeExchange): Promise<TokenResponse> => {
  for (const [field, value] of [
    ['code', r.code],
    ['redirect_uri', r.redirectUri],
    ['client_id', r.clientId],
    ['code_verifier', r.codeVerifier],
  ] as const) {
    if (!value)
      throw new OAuthError(
        'invalid_request',
        `${field} is required for grant_type=authorization_code${field === 'code_verifier' ? ' (PKCE)' : ''}.`,
      );
  }
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(r.codeVerifier!))
    throw new OAuthError(
      'invalid_request',
      'code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" and "~" (RFC 7636 §4.1).',
    );
  const invalid = (why: string) => new OAuthError('invalid_grant', `The authorization code ${why}.`);
  if (!/^mcp_ac_[A-Za-z0-9_-]{43}$/.test(r.code!)) throw invalid('is not one this server issued');
  const key = keys.oauth.code(secretHash(r.code!));
  const item = await updateItem(
    deps,
    key,
    { set: { used_at: nowSeconds(deps) } },
    { and: [{ exists: true }, { attr: 'used_at', absent: true }] },
  );
  if (!item) {
    const used = await getItem(deps, key);
    if (used?.grant_id) await revokeGrant(deps, used.team_id, used.grant_id, 'revoked_by_client');
    throw invalid(
      used ? 'was already used (codes are single-use; the tokens issued for it are revoked)' : 'is unknown',
    );
  }
  if (Number(item.expires_at) <= nowSeconds(deps))
    throw invalid(`expired (codes work for ${OAUTH_CODE_SECONDS} seconds)`);
  if (item.client_id !== r.clientId) throw invalid('was issued to another client_id');
  if (item.redirect_uri !== r.redirectUri) throw invalid('was issued for another redirect_uri');
  if (createHash('sha256').update(r.codeVerifier!).digest('base64url') !== item.code_challenge)
    throw invalid('does not match the code_verifier (PKCE S256 check failed)');
  if (r.resource !== undefined && r.resource !== item.resource)
    throw new OAuthError('invalid_target', `resource must be ${item.resource}, the one authorized.`);
  const grant = await createGrant(deps, {
    teamId: item.team_id,
    userId: item.user_id,
    clientId: item.client_id,
    clientName: item.client_name,
    clientLogoUri: item.client_logo_uri ?? null,
    scopes: item.scopes,
    mailboxIds: item.mailbox_ids ?? [],
    resource: item.resource,
  });
  await updateItem(deps, key, { set: { grant_id: grant.id } });
  return issueTokens(deps, grant);
};
