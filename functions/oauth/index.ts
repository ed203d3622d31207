import { dispatch } from '@mailstack/core/http/dispatch';
import { areaRoutes } from '../routes.ts';
import { handler as getProtectedResourceMetadata } from './get-protected-resource-metadata.ts';
import { handler as getAuthorizationServerMetadata } from './get-authorization-server-metadata.ts';
import { handler as registerClient } from './register-client.ts';
import { handler as authorize } from './authorize.ts';
import { handler as token } from './token.ts';
import { handler as revokeToken } from './revoke-token.ts';
import { handler as listGrants } from './list-grants.ts';
import { handler as revokeGrant } from './revoke-grant.ts';

/**
 * The oauth Lambda: the MCP server's authorization server (discovery, registration, authorize,
 * token, revocation) and the team's grants on the REST API. Routes come from the route manifest.
 */
export const handler = dispatch(
  areaRoutes('oauth', {
    'get-protected-resource-metadata': getProtectedResourceMetadata,
    'get-authorization-server-metadata': getAuthorizationServerMetadata,
    'register-client': registerClient,
    authorize,
    token,
    'revoke-token': revokeToken,
    'list-grants': listGrants,
    'revoke-grant': revokeGrant,
  }),
);
