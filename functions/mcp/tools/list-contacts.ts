import { handler } from '../../contacts/list-contacts.ts';
import { routeTool } from '../tool.ts';

/** GET /contacts */
export const tool = routeTool({
  name: 'list_contacts',
  scope: 'audience:read',
  route: 'GET /contacts',
  handler,
  description: "List the team's contacts, newest first. Page with limit and after/before.",
});
