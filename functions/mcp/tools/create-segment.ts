import { handler } from '../../segments/create-segment.ts';
import { routeTool } from '../tool.ts';

/** POST /segments */
export const tool = routeTool({
  name: 'create_segment',
  scope: 'audience:write',
  route: 'POST /segments',
  handler,
  description:
    'Create a segment (a named group of contacts that broadcasts are sent to), optionally defined by a filter on contact properties.',
});
