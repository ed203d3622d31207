import { handler } from '../../webhooks/list-webhooks.ts';
import { routeTool } from '../tool.ts';

/** GET /webhooks */
export const tool = routeTool({
  name: 'list_webhooks',
  scope: 'webhooks:write',
  route: 'GET /webhooks',
  handler,
  description: "List the team's webhook endpoints. Page with limit and after/before.",
});
