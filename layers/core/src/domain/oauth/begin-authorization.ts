import { redirectWith, nowSeconds, type AuthorizeOutcome } from './authorization.ts';
import { randomBytes } from 'node:crypto';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { putItem } from '../../table/ops.ts';
import { OAUTH_CONSENT_SECONDS } from '../../limits.ts';
import { getClient } from './clients.ts';
import { mcpResourceUrl } from './resource.ts';
import { parseScopes } from './scopes.ts';
import { secretHash } from './tokens.ts';

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
