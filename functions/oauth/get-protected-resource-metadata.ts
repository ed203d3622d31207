import { apiRoute } from '@mailstack/core/http/api-route';
import { protectedResourceMetadata } from '@mailstack/core/domain/oauth/metadata';
import { ProtectedResourceMetadata } from '@mailstack/core/schemas/oauth';
import { oauthJson } from './respond.ts';

/** GET /.well-known/oauth-protected-resource (and its /mcp-suffixed form, RFC 9728 §3.1): where MCP clients learn how to get a token. */
export const handler = apiRoute({
  access: 'public',
  response: ProtectedResourceMetadata,
  handler: async ({ deps }) => oauthJson(200, protectedResourceMetadata(deps.config)),
});
