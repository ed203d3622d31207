import { handler } from '../../contacts/create-contact.ts';
import { routeTool } from '../tool.ts';

/** POST /contacts */
export const tool = routeTool({
  name: 'create_contact',
  scope: 'audience:write',
  route: 'POST /contacts',
  handler,
  description:
    'Create a contact (a recipient of broadcasts) by email address, with optional names, custom properties, segments to join and topic subscriptions. The address must be new to the team (409 conflict otherwise).',
});
