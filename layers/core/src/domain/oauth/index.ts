/**
 * What the MCP endpoint takes from the authorization server: checking a bearer token, and the
 * 401 challenge pointing clients at discovery.
 */
export { verifyAccessToken, type OAuthPrincipal } from './tokens.ts';
export { bearerChallenge, mcpResourceUrl, protectedResourceMetadataUrl } from './resource.ts';
