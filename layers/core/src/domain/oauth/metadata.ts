import type { Config } from '../../runtime/config.ts';
import { issuerUrl, mcpResourceUrl, oauthEndpoints } from './resource.ts';
import { SCOPES } from './scopes.ts';

type Base = Pick<Config, 'PUBLIC_BASE_URL'>;

/** The protected-resource metadata of the MCP endpoint (RFC 9728 §2). */
export const protectedResourceMetadata = (config: Base) => ({
  resource: mcpResourceUrl(config),
  authorization_servers: [issuerUrl(config)],
  scopes_supported: [...SCOPES],
  bearer_methods_supported: ['header' as const],
  resource_name: 'mailstack MCP server',
});

/** The authorization server's metadata (RFC 8414 §2): public clients, PKCE S256 only. */
export const authorizationServerMetadata = (config: Base) => {
  const endpoints = oauthEndpoints(config);
  return {
    issuer: issuerUrl(config),
    authorization_endpoint: endpoints.authorization,
    token_endpoint: endpoints.token,
    registration_endpoint: endpoints.registration,
    revocation_endpoint: endpoints.revocation,
    scopes_supported: [...SCOPES],
    response_types_supported: ['code' as const],
    response_modes_supported: ['query' as const],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256' as const],
    token_endpoint_auth_methods_supported: ['none' as const],
    revocation_endpoint_auth_methods_supported: ['none' as const],
    authorization_response_iss_parameter_supported: true,
  };
};
