import { handler } from '../../domains/get-domain.ts';
import { routeTool } from '../tool.ts';

/** GET /domains/{id} */
export const tool = routeTool({
  name: 'get_domain',
  scope: 'domains:read',
  route: 'GET /domains/{id}',
  handler,
  description:
    'Get one sending domain: its status (not_started, pending, verified, failed, ...), DNS records and tracking settings.',
});
