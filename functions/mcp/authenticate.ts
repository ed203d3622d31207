import { ApiError } from '@mailstack/core/errors/api-error';
import type { ApiResult } from '@mailstack/core/http/types';
import type { Deps } from '@mailstack/core/runtime/deps';
import { mcpResourceUrl, protectedResourceMetadataUrl, verifyAccessToken } from '@mailstack/core/domain/oauth/index';
import { SCOPES } from '@mailstack/core/domain/oauth/scopes';
import type { McpPrincipal } from './server.ts';

/** Resolves an OAuth access token presented to `resource` to its principal, or null (unknown, expired, revoked, another resource). */
export type AccessTokenVerifier = (deps: Deps, token: string, resource: string) => Promise<McpPrincipal | null>;

/** The refusal of a request that carries no valid access token: 401 and the RFC 9728 challenge. */
export interface McpChallenge {
  readonly challenge: ApiResult;
  /** A token was presented (and did not verify); false when there was none. */
  readonly presented: boolean;
}

/** The MCP endpoint, the resource its tokens are bound to (RFC 8707). */
const mcpResource = (deps: Deps): string => mcpResourceUrl(deps.config);

/** Where a client discovers how to sign in (RFC 9728 protected-resource metadata). */
const resourceMetadataUrl = (deps: Deps): string => protectedResourceMetadataUrl(deps.config);

const challenge = (deps: Deps, error: ApiError, tokenPresented: boolean): McpChallenge => {
  // RFC 6750 §3: a presented token that does not verify is `invalid_token`; no token, no error
  // code. `scope` names the scopes the server supports (MCP 2025-11-25 authorization, scope
  // selection), the same list as the protected-resource metadata's scopes_supported.
  const header = `Bearer resource_metadata="${resourceMetadataUrl(deps)}"${tokenPresented ? ', error="invalid_token"' : ''}, scope="${SCOPES.join(' ')}"`;
  return {
    presented: tokenPresented,
    challenge: {
      statusCode: 401,
      headers: { 'content-type': 'application/json', 'www-authenticate': header, 'cache-control': 'no-store' },
      body: JSON.stringify(error.toJSON()),
    },
  };
};

/** The 401 of a request without a usable token: a missing header, or a token that does not verify (an API key among them). */
export const mcpChallenge = (deps: Deps, presented: string | undefined): McpChallenge =>
  presented === undefined
    ? challenge(
        deps,
        new ApiError(
          'missing_api_key',
          "The MCP server needs an OAuth access token (Authorization: Bearer <token>). An MCP client signs you in through the dashboard: it finds how from the WWW-Authenticate header's resource_metadata.",
        ),
        false,
      )
    : challenge(
        deps,
        new ApiError(
          'invalid_api_key',
          presented.startsWith('ms_')
            ? 'API keys do not authenticate the MCP server: it takes an OAuth access token. Connect your MCP client to this URL and sign in when it asks.'
            : 'The access token is not valid for this MCP server: unknown, expired, revoked, or issued for another resource. Sign in again (refresh the token, or start the OAuth flow from the WWW-Authenticate header).',
        ),
        true,
      );

/**
 * The one place the MCP endpoint authenticates: the bearer token of the Authorization header,
 * verified for this resource, is a principal; anything else (no header, another scheme, an API
 * key, an unknown, expired or revoked token) is the 401 challenge.
 */
export const authenticateMcp = async (
  deps: Deps,
  authorization: string | undefined,
  verify: AccessTokenVerifier = verifyAccessToken,
): Promise<McpPrincipal | McpChallenge> => {
  if (authorization === undefined || authorization.trim() === '') return mcpChallenge(deps, undefined);
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization.trim())?.[1];
  if (!token) return mcpChallenge(deps, '');
  return (await verify(deps, token, mcpResource(deps))) ?? mcpChallenge(deps, token);
};

/**
 * The refusal of a call that needs a scope the token was not granted (MCP 2025-11-25
 * authorization, scope challenge; RFC 6750 §3.1): 403 with `error="insufficient_scope"` and the
 * scopes to ask for, the ones already granted and the one the call needs, so a client can sign
 * in again with them (step-up) without losing the others.
 */
export const insufficientScope = (
  deps: Deps,
  granted: readonly string[],
  needed: string,
  message: string,
): ApiResult => {
  const scopes = [...new Set([...granted, needed])].join(' ');
  return {
    statusCode: 403,
    headers: {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      'www-authenticate': `Bearer error="insufficient_scope", scope="${scopes}", resource_metadata="${resourceMetadataUrl(deps)}", error_description="${message.replace(/["\\]/g, "'")}"`,
    },
    body: JSON.stringify(new ApiError('forbidden', message).toJSON()),
  };
};

/** True for the challenge answer of authenticateMcp. */
export const isChallenge = (out: McpPrincipal | McpChallenge): out is McpChallenge => 'challenge' in out;
