import { handler } from '../../contacts/get-contact.ts';
import { routeTool } from '../tool.ts';

/** GET /contacts/{id} */
export const tool = routeTool({
  name: 'get_contact',
  scope: 'audience:read',
  route: 'GET /contacts/{id}',
  handler,
  description: 'Get one contact by id or email address, with its properties and unsubscribed flag.',
});
