import type { Config } from '../../runtime/config.ts';

/**
 * Where the hosted MCP server and its authorization server live, from the deployment's public
 * base URL: the one place their addresses are built (discovery documents, token binding, the
 * 401 challenge, the local banner).
 */
const base = (config: Pick<Config, 'PUBLIC_BASE_URL'>): string => config.PUBLIC_BASE_URL.replace(/\/+$/, '');

/** The MCP endpoint, which is also the resource (RFC 8707) every access token is bound to. */
export const mcpResourceUrl = (config: Pick<Config, 'PUBLIC_BASE_URL'>): string => `${base(config)}/mcp`;

/** The authorization server's issuer identifier (RFC 8414): the base URL itself. */
export const issuerUrl = (config: Pick<Config, 'PUBLIC_BASE_URL'>): string => base(config);

/** The protected-resource metadata document (RFC 9728). */
export const protectedResourceMetadataUrl = (config: Pick<Config, 'PUBLIC_BASE_URL'>): string =>
  `${base(config)}/.well-known/oauth-protected-resource`;

/** The authorization server's endpoints. */
export const oauthEndpoints = (config: Pick<Config, 'PUBLIC_BASE_URL'>) => ({
  authorization: `${base(config)}/oauth/authorize`,
  token: `${base(config)}/oauth/token`,
  registration: `${base(config)}/oauth/register`,
  revocation: `${base(config)}/oauth/revoke`,
});

/**
 * The WWW-Authenticate value of a 401 from the MCP endpoint (RFC 9728 §5.1, RFC 6750 §3):
 * where the protected-resource metadata is, and `error="invalid_token"` when a token was
 * presented but refused (unknown, expired, revoked, bound to another resource, or an API key).
 */
export const bearerChallenge = (
  config: Pick<Config, 'PUBLIC_BASE_URL'>,
  options: { tokenPresented?: boolean } = {},
): string =>
  `Bearer resource_metadata="${protectedResourceMetadataUrl(config)}"${options.tokenPresented ? ', error="invalid_token", error_description="The access token is unknown, expired, revoked or for another resource; authorize again."' : ''}`;
