import { ApiError } from '@mailstack/core/errors/api-error';
import { errorResponse } from '@mailstack/core/http/respond';
import type { ApiHandler } from '@mailstack/core/http/types';
import { areaRoutes } from '../routes.ts';
import { handler as mcpEndpoint } from './mcp-endpoint.ts';
import { handler as mailboxEndpoint } from './mailbox-endpoint.ts';

const routes = areaRoutes('mcp', { 'mcp-endpoint': mcpEndpoint, 'mailbox-endpoint': mailboxEndpoint });

/**
 * The mcp Lambda: the hosted MCP server at `/mcp` and each mailbox's at `/mcp/{mailbox}` (POST,
 * GET, DELETE), from the route manifest.
 * It speaks MCP over Streamable HTTP rather than the REST API, so the OpenAPI document leaves it out.
 */
export const handler: ApiHandler = async (event, context) => {
  const route = routes[event.routeKey];
  if (!route)
    return errorResponse(new ApiError('not_found', `The requested endpoint does not exist: ${event.routeKey}.`));
  return route(event, context);
};
