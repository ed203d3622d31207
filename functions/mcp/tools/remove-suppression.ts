import { handler } from '../../suppressions/remove-suppression.ts';
import { routeTool } from '../tool.ts';

/** DELETE /suppressions/{id} */
export const tool = routeTool({
  name: 'remove_suppression',
  scope: 'audience:write',
  route: 'DELETE /suppressions/{id}',
  handler,
  description: 'Remove a suppression (by id or address) so mail can be sent to the address again.',
});
