import { handler } from '../../suppressions/batch-remove-suppressions.ts';
import { routeTool } from '../tool.ts';

/** POST /suppressions/batch/remove */
export const tool = routeTool({
  name: 'batch_remove_suppressions',
  scope: 'audience:write',
  route: 'POST /suppressions/batch/remove',
  handler,
  description: 'Remove many suppressions at once, by addresses or ids.',
});
