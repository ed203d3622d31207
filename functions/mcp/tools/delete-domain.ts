import { handler } from '../../domains/delete-domain.ts';
import { routeTool } from '../tool.ts';

/** DELETE /domains/{id} */
export const tool = routeTool({
  name: 'delete_domain',
  scope: 'domains:write',
  route: 'DELETE /domains/{id}',
  handler,
  description: 'Remove a sending domain from the team; mail can no longer be sent from it. This cannot be undone.',
});
