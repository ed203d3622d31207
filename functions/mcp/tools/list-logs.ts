import { handler } from '../../logs/list-logs.ts';
import { routeTool } from '../tool.ts';

/** GET /logs */
export const tool = routeTool({
  name: 'list_logs',
  scope: 'emails:read',
  route: 'GET /logs',
  handler,
  description:
    "List the team's API request logs, newest first: method, endpoint, response status and user agent of each. Page with limit and after/before; get_log shows one request's bodies.",
});
