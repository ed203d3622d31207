import { handler } from '../../contact-properties/list-contact-properties.ts';
import { routeTool } from '../tool.ts';

/** GET /contact-properties */
export const tool = routeTool({
  name: 'list_contact_properties',
  scope: 'audience:read',
  route: 'GET /contact-properties',
  handler,
  description: "List the team's custom contact properties. Page with limit and after/before.",
});
