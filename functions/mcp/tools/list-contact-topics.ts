import { handler } from '../../contacts/list-contact-topics.ts';
import { routeTool } from '../tool.ts';

/** GET /contacts/{id}/topics */
export const tool = routeTool({
  name: 'list_contact_topics',
  scope: 'audience:read',
  route: 'GET /contacts/{id}/topics',
  handler,
  description: "List a contact's subscription (opt_in or opt_out) to each of the team's topics.",
});
