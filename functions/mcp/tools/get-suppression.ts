import { handler } from '../../suppressions/get-suppression.ts';
import { routeTool } from '../tool.ts';

/** GET /suppressions/{id} */
export const tool = routeTool({
  name: 'get_suppression',
  scope: 'audience:read',
  route: 'GET /suppressions/{id}',
  handler,
  description: 'Get one suppression by id or by the suppressed address.',
});
