import { apiRoute } from '@mailstack/core/http/api-route';
import { authorizationServerMetadata } from '@mailstack/core/domain/oauth/metadata';
import { AuthorizationServerMetadata } from '@mailstack/core/schemas/oauth';
import { oauthJson } from './respond.ts';

/** GET /.well-known/oauth-authorization-server (RFC 8414): endpoints, scopes, PKCE S256 only, public clients. */
export const handler = apiRoute({
  access: 'public',
  response: AuthorizationServerMetadata,
  handler: async ({ deps }) => oauthJson(200, authorizationServerMetadata(deps.config)),
});
