import * as v from 'valibot';
import { Id, Timestamp } from './common.ts';

/** Protected-resource metadata of the MCP endpoint (RFC 9728 §2). */
export const ProtectedResourceMetadata = v.object({
  resource: v.string(),
  authorization_servers: v.array(v.string()),
  scopes_supported: v.array(v.string()),
  bearer_methods_supported: v.array(v.literal('header')),
  resource_name: v.string(),
  resource_documentation: v.optional(v.string()),
});

/** Authorization-server metadata (RFC 8414 §2). */
export const AuthorizationServerMetadata = v.object({
  issuer: v.string(),
  authorization_endpoint: v.string(),
  token_endpoint: v.string(),
  registration_endpoint: v.string(),
  revocation_endpoint: v.string(),
  scopes_supported: v.array(v.string()),
  response_types_supported: v.array(v.literal('code')),
  response_modes_supported: v.array(v.literal('query')),
  grant_types_supported: v.array(v.string()),
  code_challenge_methods_supported: v.array(v.literal('S256')),
  token_endpoint_auth_methods_supported: v.array(v.literal('none')),
  revocation_endpoint_auth_methods_supported: v.array(v.literal('none')),
  authorization_response_iss_parameter_supported: v.boolean(),
});

/** A registered client (RFC 7591 §3.2.1). */
export const ClientRegistration = v.object({
  client_id: Id,
  client_id_issued_at: v.number(),
  client_name: v.string(),
  redirect_uris: v.array(v.string()),
  grant_types: v.array(v.string()),
  response_types: v.array(v.string()),
  token_endpoint_auth_method: v.literal('none'),
  logo_uri: v.optional(v.string()),
  client_uri: v.optional(v.string()),
  scope: v.optional(v.string()),
});

/** The token response (RFC 6749 §5.1). */
export const TokenResponse = v.object({
  access_token: v.string(),
  token_type: v.literal('Bearer'),
  expires_in: v.number(),
  scope: v.string(),
  refresh_token: v.optional(v.string()),
});

/** A grant as the SDK's `oauthGrants.list` returns it (resend: OAuthGrant). */
export const OAuthGrantRow = v.object({
  id: Id,
  client_id: Id,
  scopes: v.array(v.string()),
  created_at: Timestamp,
  revoked_at: v.nullable(Timestamp),
  revoked_reason: v.nullable(v.string()),
  client: v.object({ name: v.string(), logo_uri: v.nullable(v.string()) }),
});

/** What `oauthGrants.revoke` returns (resend: RevokeOAuthGrantResponseSuccess). */
export const RevokedGrant = v.object({
  object: v.literal('oauth_grant'),
  id: Id,
  revoked_at: Timestamp,
  revoked_reason: v.string(),
});
