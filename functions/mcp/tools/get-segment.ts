import { handler } from '../../segments/get-segment.ts';
import { routeTool } from '../tool.ts';

/** GET /segments/{id} */
export const tool = routeTool({
  name: 'get_segment',
  scope: 'audience:read',
  route: 'GET /segments/{id}',
  handler,
  description: 'Get one segment by id: its name and filter. list_segment_contacts lists its contacts.',
});
