import { handler } from '../../contacts/batch-remove-contacts.ts';
import { routeTool } from '../tool.ts';

/** POST /contacts/batch/remove */
export const tool = routeTool({
  name: 'batch_remove_contacts',
  scope: 'audience:write',
  route: 'POST /contacts/batch/remove',
  handler,
  description: 'Delete many contacts at once, by ids or by emails. erase: true also erases their sending history.',
});
