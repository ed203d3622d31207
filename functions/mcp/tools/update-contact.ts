import { handler } from '../../contacts/update-contact.ts';
import { routeTool } from '../tool.ts';

/** PATCH /contacts/{id} */
export const tool = routeTool({
  name: 'update_contact',
  scope: 'audience:write',
  route: 'PATCH /contacts/{id}',
  handler,
  description:
    'Update a contact (by id or email address): first_name, last_name, unsubscribed (true unsubscribes it from all broadcasts), custom properties.',
});
