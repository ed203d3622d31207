import { handler } from '../../contact-properties/get-contact-property.ts';
import { routeTool } from '../tool.ts';

/** GET /contact-properties/{id} */
export const tool = routeTool({
  name: 'get_contact_property',
  scope: 'audience:read',
  route: 'GET /contact-properties/{id}',
  handler,
  description: 'Get one custom contact property by id: its key, type and fallback_value.',
});
