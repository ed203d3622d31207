import { handler } from '../../contacts/delete-contact.ts';
import { routeTool } from '../tool.ts';

/** DELETE /contacts/{id} */
export const tool = routeTool({
  name: 'delete_contact',
  scope: 'audience:write',
  route: 'DELETE /contacts/{id}',
  handler,
  description: 'Delete a contact (by id or email address) and its segment memberships and topic choices.',
});
