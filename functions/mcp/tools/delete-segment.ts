import { handler } from '../../segments/delete-segment.ts';
import { routeTool } from '../tool.ts';

/** DELETE /segments/{id} */
export const tool = routeTool({
  name: 'delete_segment',
  scope: 'audience:write',
  route: 'DELETE /segments/{id}',
  handler,
  description: 'Delete a segment; its contacts stay in the team.',
});
