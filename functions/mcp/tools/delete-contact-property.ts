import { handler } from '../../contact-properties/delete-contact-property.ts';
import { routeTool } from '../tool.ts';

/** DELETE /contact-properties/{id} */
export const tool = routeTool({
  name: 'delete_contact_property',
  scope: 'audience:write',
  route: 'DELETE /contact-properties/{id}',
  handler,
  description: 'Delete a custom contact property and its values on every contact.',
});
