import { handler } from '../../contact-properties/create-contact-property.ts';
import { routeTool } from '../tool.ts';

/** POST /contact-properties */
export const tool = routeTool({
  name: 'create_contact_property',
  scope: 'audience:write',
  route: 'POST /contact-properties',
  handler,
  description:
    "Define a custom contact property (key, type 'string' or 'number', optional fallback_value) usable in contacts, segment filters and template variables.",
});
