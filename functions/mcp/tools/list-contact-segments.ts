import { handler } from '../../contacts/list-contact-segments.ts';
import { routeTool } from '../tool.ts';

/** GET /contacts/{id}/segments */
export const tool = routeTool({
  name: 'list_contact_segments',
  scope: 'audience:read',
  route: 'GET /contacts/{id}/segments',
  handler,
  description: 'List the segments a contact (by id or email address) belongs to.',
});
