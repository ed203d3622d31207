import { handler } from '../../suppressions/batch-add-suppressions.ts';
import { routeTool } from '../tool.ts';

/** POST /suppressions/batch/add */
export const tool = routeTool({
  name: 'batch_add_suppressions',
  scope: 'audience:write',
  route: 'POST /suppressions/batch/add',
  handler,
  description:
    'Suppress many email addresses at once (the team stops sending to each of them), as add_suppression does for one.',
});
