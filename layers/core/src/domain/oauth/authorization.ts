import { createHash, randomBytes } from 'node:crypto';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, putItem, updateItem } from '../../table/ops.ts';
import { ApiError } from '../../errors/api-error.ts';
import { OAUTH_CODE_SECONDS, OAUTH_CONSENT_SECONDS, MAX_GRANT_MAILBOXES } from '../../limits.ts';
import { actorIn } from '../people/membership.ts';
import type { User } from '../people/user.ts';
import { getClient } from './clients.ts';
import { createGrant } from './create-grant.ts';
import { revokeGrant } from './grant.ts';
import { OAuthError } from './oauth-error.ts';
import { issuerUrl, mcpResourceUrl } from './resource.ts';
import { parseScopes, roleMayGrant, isScope, isMailScope, type Scope } from './scopes.ts';
import { listMailboxes } from '../mailboxes/list-mailboxes.ts';
import { issueTokens, newSecret, secretHash, type TokenResponse } from './tokens.ts';

/**
 * The authorization-code flow with PKCE (RFC 6749 §4.1, RFC 7636 S256 only, RFC 8707
 * resource): the authorize step checks the request and parks it for the person's decision on
 * the dashboard's consent screen; approval issues a single-use code bound to the client, its
 * redirect URI, the PKCE challenge, the team, the person and the granted scopes; the token
 * endpoint trades the code (once) for tokens under a new grant.
 */

/** What the authorize endpoint answers: a page that refuses (never a redirect to an unchecked URI), or a redirect. */
export type AuthorizeOutcome = { readonly refuse: string } | { readonly redirect: string };

const nowSeconds = (deps: Deps) => Math.floor(deps.clock.now() / 1000);

/** The client's redirect URI with the response parameters added (its own query kept), `iss` included (RFC 9207). */
const redirectWith = (deps: Deps, redirectUri: string, params: Record<string, string | undefined>): string => {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries({ ...params, iss: issuerUrl(deps.config) }))
    if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
};

/**
 * The authorize endpoint (GET /oauth/authorize): an unknown client or a redirect URI it did not
 * register is refused on a page; every other problem goes back to the client's redirect URI as
 * an error; a good request is parked and the person is sent to the dashboard's consent screen.
 */
export const beginAuthorization = async (
  deps: Deps,
  q: Readonly<Record<string, string | undefined>>,
): Promise<AuthorizeOutcome> => {
  const client = q.client_id ? await getClient(deps, q.client_id) : undefined;
  if (!client)
    return {
      refuse:
        'The client_id is missing or not registered here. Register the client first (POST /oauth/register, RFC 7591).',
    };
  const redirectUri = q.redirect_uri ?? (client.redirectUris.length === 1 ? client.redirectUris[0] : undefined);
  if (!redirectUri || !client.redirectUris.includes(redirectUri)) {
    return {
      refuse: `The redirect_uri ${q.redirect_uri ? JSON.stringify(q.redirect_uri.slice(0, 200)) : '(missing)'} is not one this client registered; nothing was sent to it.`,
    };
  }
  const fail = (error: string, description: string): AuthorizeOutcome => ({
    redirect: redirectWith(deps, redirectUri, { error, error_description: description, state: q.state }),
  });
  if (q.response_type !== 'code') return fail('unsupported_response_type', 'response_type must be "code".');
  if (q.code_challenge_method !== 'S256')
    return fail(
      'invalid_request',
      'PKCE is required with code_challenge_method=S256 ("plain" and a missing method are refused).',
    );
  if (!q.code_challenge || !/^[A-Za-z0-9_-]{43}$/.test(q.code_challenge))
    return fail(
      'invalid_request',
      'code_challenge must be the base64url SHA-256 of the code_verifier (43 characters).',
    );
  const resource = mcpResourceUrl(deps.config);
  if (q.resource !== undefined && q.resource !== resource)
    return fail('invalid_target', `resource must be ${resource}, the MCP server these tokens are for.`);
  const { scopes, unknown } = parseScopes(q.scope);
  if (unknown.length)
    return fail(
      'invalid_scope',
      `Unknown scope(s): ${unknown.join(', ').slice(0, 300)}. See scopes_supported in the authorization server metadata.`,
    );
  if (q.state !== undefined && q.state.length > 2000)
    return fail('invalid_request', 'state is longer than 2,000 characters.');
  const id = randomBytes(32).toString('base64url');
  const expires = nowSeconds(deps) + OAUTH_CONSENT_SECONDS;
  await putItem(
    deps,
    {
      ...keys.oauth.request(secretHash(id)),
      type: 'oauth_request',
      client_id: client.clientId,
      client_name: client.clientName,
      client_logo_uri: client.logoUri,
      redirect_uri: redirectUri,
      code_challenge: q.code_challenge,
      state: q.state ?? null,
      scopes,
      resource,
      expires_at: expires,
      ttl: expires,
    },
    { exists: false },
  );
  return { redirect: `${deps.config.DASHBOARD_URL.replace(/\/+$/, '')}/oauth/consent/${id}` };
};

/** A parked authorization request, as the consent screen shows it. */
export interface AuthorizationRequest {
  readonly clientId: string;
  readonly clientName: string;
  readonly clientLogoUri: string | null;
  readonly redirectUri: string;
  readonly scopes: Scope[];
}

const requestGone = () =>
  new ApiError(
    'not_found',
    'This authorization request is unknown, expired or already answered. Start the connection again from your MCP client.',
  );

/** The request behind a consent link; 404 when unknown, expired or already decided. */
export const loadAuthorizationRequest = async (deps: Deps, id: string): Promise<AuthorizationRequest> => {
  if (!/^[A-Za-z0-9_-]{43}$/.test(id)) throw requestGone();
  const item = await getItem(deps, keys.oauth.request(secretHash(id)));
  if (!item || item.decided_at || Number(item.expires_at) <= nowSeconds(deps)) throw requestGone();
  return {
    clientId: item.client_id,
    clientName: item.client_name,
    clientLogoUri: item.client_logo_uri ?? null,
    redirectUri: item.redirect_uri,
    scopes: item.scopes,
  };
};

/** The person's answer on the consent screen. */
export type Decision =
  | {
      readonly approve: false;
    }
  | {
      readonly approve: true;
      readonly teamId: string;
      readonly scopes: readonly string[];
      /** The mailboxes the mail:* scopes may act in (the person's own, in the chosen team). */
      readonly mailboxIds?: readonly string[];
    };

/**
 * Records the person's decision (once: a second answer finds the request gone) and returns
 * where to send the browser: the client's redirect URI with a code, or with
 * `error=access_denied`. Only scopes the person's role in the chosen team allows are granted;
 * the mail:* scopes act only in the chosen mailboxes of that team the person owns, and are not
 * granted when none is chosen; a person outside the team gets 404.
 */
export const decideAuthorization = async (deps: Deps, id: string, user: User, decision: Decision): Promise<string> => {
  if (!/^[A-Za-z0-9_-]{43}$/.test(id)) throw requestGone();
  const actor = decision.approve ? await actorIn(deps, user, decision.teamId) : undefined;
  const item = await updateItem(
    deps,
    keys.oauth.request(secretHash(id)),
    { set: { decided_at: nowSeconds(deps) } },
    {
      and: [{ exists: true }, { attr: 'decided_at', absent: true }, { attr: 'expires_at', gt: nowSeconds(deps) }],
    },
  );
  if (!item) throw requestGone();
  const state = item.state ?? undefined;
  if (!decision.approve || !actor)
    return redirectWith(deps, item.redirect_uri, {
      error: 'access_denied',
      error_description: 'The person declined the request.',
      state,
    });
  const requested = new Set<string>(item.scopes);
  const allowed = decision.scopes.filter(
    (s): s is Scope => isScope(s) && requested.has(s) && roleMayGrant(actor.role, s),
  );
  const mailboxIds = allowed.some(isMailScope)
    ? await ownMailboxes(deps, actor.team.id, user.id, decision.mailboxIds ?? [])
    : [];
  const scopes = allowed.filter((s) => !isMailScope(s) || mailboxIds.length > 0);
  if (scopes.length === 0)
    return redirectWith(deps, item.redirect_uri, {
      error: 'access_denied',
      error_description:
        "No scope was granted: none was chosen, or the person's role in the team allows none of those requested.",
      state,
    });
  const code = newSecret('mcp_ac_');
  const expires = nowSeconds(deps) + OAUTH_CODE_SECONDS;
  await putItem(
    deps,
    {
      ...keys.oauth.code(secretHash(code)),
      type: 'oauth_code',
      client_id: item.client_id,
      client_name: item.client_name,
      client_logo_uri: item.client_logo_uri ?? null,
      redirect_uri: item.redirect_uri,
      code_challenge: item.code_challenge,
      resource: item.resource,
      team_id: actor.team.id,
      user_id: user.id,
      scopes: [...new Set(scopes)],
      mailbox_ids: mailboxIds,
      expires_at: expires,
      ttl: expires + 3600,
    },
    { exists: false },
  );
  return redirectWith(deps, item.redirect_uri, { code, state });
};

/**
 * Of the mailbox ids a person chose at consent, those of the team they own (at most
 * MAX_GRANT_MAILBOXES): a person lends an agent only their own mailboxes.
 */
const ownMailboxes = async (
  deps: Deps,
  teamId: string,
  userId: string,
  chosen: readonly string[],
): Promise<string[]> => {
  if (chosen.length === 0) return [];
  const own = new Set((await listMailboxes(deps, teamId)).filter((m) => m.ownerUserId === userId).map((m) => m.id));
  return [...new Set(chosen)].filter((id) => own.has(id)).slice(0, MAX_GRANT_MAILBOXES);
};

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
