import { handler } from '../../suppressions/add-suppression.ts';
import { routeTool } from '../tool.ts';

/** POST /suppressions */
export const tool = routeTool({
  name: 'add_suppression',
  scope: 'audience:write',
  route: 'POST /suppressions',
  handler,
  description:
    'Suppress an email address: the team will not send to it again (sends to it are refused) until the suppression is removed.',
});
