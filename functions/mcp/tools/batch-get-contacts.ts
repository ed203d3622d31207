import { handler } from '../../contacts/batch-get-contacts.ts';
import { routeTool } from '../tool.ts';

/** POST /contacts/batch/get */
export const tool = routeTool({
  name: 'batch_get_contacts',
  scope: 'audience:read',
  route: 'POST /contacts/batch/get',
  handler,
  description: 'Get many contacts at once by id or email address; answers those found and names the indexes not found.',
});
