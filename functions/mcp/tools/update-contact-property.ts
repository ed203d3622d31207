import { handler } from '../../contact-properties/update-contact-property.ts';
import { routeTool } from '../tool.ts';

/** PATCH /contact-properties/{id} */
export const tool = routeTool({
  name: 'update_contact_property',
  scope: 'audience:write',
  route: 'PATCH /contact-properties/{id}',
  handler,
  description: "Change a custom contact property's fallback_value (its key and type are fixed).",
});
