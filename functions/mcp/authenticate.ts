import { ApiError } from '@mailstack/core/errors/api-error';
import type { ApiResult } from '@mailstack/core/http/types';
import type { Deps } from '@mailstack/core/runtime/deps';
import { mcpResourceUrl, protectedResourceMetadataUrl, verifyAccessToken } from '@mailstack/core/domain/oauth/index';
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
export const mcpResource = (deps: Deps): string => mcpResourceUrl(deps.config);

/** Where a client discovers how to sign in (RFC 9728 protected-resource metadata). */
export const resourceMetadataUrl = (deps: Deps): string => protectedResourceMetadataUrl(deps.config);

const challenge = (deps: Deps, error: ApiError, tokenPresented: boolean): McpChallenge => {
  // RFC 6750 §3: a presented token that does not verify is `invalid_token`; no token, no error code.
  const header = `Bearer resource_metadata="${resourceMetadataUrl(deps)}"${tokenPresented ? ', error="invalid_token"' : ''}`;
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
    ? challenge(deps, new ApiError('missing_api_key', 'The MCP server needs an OAuth access token (Authorization: Bearer <token>). An MCP client signs you in through the dashboard: it finds how from the WWW-Authenticate header\'s resource_metadata.'), false)
    : challenge(deps, new ApiError('invalid_api_key', presented.startsWith('ms_')
      ? 'API keys do not authenticate the MCP server: it takes an OAuth access token. Connect your MCP client to this URL and sign in when it asks.'
      : 'The access token is not valid for this MCP server: unknown, expired, revoked, or issued for another resource. Sign in again (refresh the token, or start the OAuth flow from the WWW-Authenticate header).'), true);


/**
 * The one place the MCP endpoint authenticates: the bearer token of the Authorization header,
 * verified for this resource, is a principal; anything else (no header, another scheme, an API
 * key, an unknown, expired or revoked token) is the 401 challenge.
 */
export const authenticateMcp = async (deps: Deps, authorization: string | undefined, verify: AccessTokenVerifier = verifyAccessToken): Promise<McpPrincipal | McpChallenge> => {
  if (authorization === undefined || authorization.trim() === '') return mcpChallenge(deps, undefined);
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization.trim())?.[1];
  if (!token) return mcpChallenge(deps, '');
  return (await verify(deps, token, mcpResource(deps))) ?? mcpChallenge(deps, token);
};

/** True for the challenge answer of authenticateMcp. */
export const isChallenge = (out: McpPrincipal | McpChallenge): out is McpChallenge => 'challenge' in out;
