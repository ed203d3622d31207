import { handler } from '../../logs/get-log.ts';
import { routeTool } from '../tool.ts';

/** GET /logs/{id} */
export const tool = routeTool({
  name: 'get_log',
  scope: 'emails:read',
  route: 'GET /logs/{id}',
  handler,
  description:
    'Get one API request log by id: its method, endpoint, response status, and the request and response bodies (secrets and attachment content redacted, long bodies cut).',
});
