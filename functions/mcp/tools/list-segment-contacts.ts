import { handler } from '../../contacts/list-segment-contacts.ts';
import { routeTool } from '../tool.ts';

/** GET /segments/{id}/contacts */
export const tool = routeTool({
  name: 'list_segment_contacts',
  scope: 'audience:read',
  route: 'GET /segments/{id}/contacts',
  handler,
  description: 'List the contacts of one segment, newest first. Page with limit and after/before.',
});
