import { handler } from '../../segments/update-segment.ts';
import { routeTool } from '../tool.ts';

/** PATCH /segments/{id} */
export const tool = routeTool({
  name: 'update_segment',
  scope: 'audience:write',
  route: 'PATCH /segments/{id}',
  handler,
  description: 'Rename a segment; its contacts and filter stay as they are.',
});
