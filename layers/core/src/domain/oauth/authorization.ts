import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem } from '../../table/ops.ts';
import { ApiError } from '../../errors/api-error.ts';
import { issuerUrl } from './resource.ts';
import type { Scope } from './scopes.ts';
import { secretHash } from './tokens.ts';

/**
 * The authorization-code flow with PKCE (RFC 6749 §4.1, RFC 7636 S256 only, RFC 8707
 * resource): the authorize step checks the request and parks it for the person's decision on
 * the dashboard's consent screen; approval issues a single-use code bound to the client, its
 * redirect URI, the PKCE challenge, the team, the person and the granted scopes; the token
 * endpoint trades the code (once) for tokens under a new grant.
 */

/** What the authorize endpoint answers: a page that refuses (never a redirect to an unchecked URI), or a redirect. */
export type AuthorizeOutcome = { readonly refuse: string } | { readonly redirect: string };

export const nowSeconds = (deps: Deps) => Math.floor(deps.clock.now() / 1000);

/** The client's redirect URI with the response parameters added (its own query kept), `iss` included (RFC 9207). */
export const redirectWith = (deps: Deps, redirectUri: string, params: Record<string, string | undefined>): string => {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries({ ...params, iss: issuerUrl(deps.config) }))
    if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
};

/** A parked authorization request, as the consent screen shows it. */
interface AuthorizationRequest {
  readonly clientId: string;
  readonly clientName: string;
  readonly clientLogoUri: string | null;
  readonly redirectUri: string;
  readonly scopes: Scope[];
}

export const requestGone = () =>
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
