import { handler } from '../../contacts/remove-contact-segment.ts';
import { routeTool } from '../tool.ts';

/** DELETE /contacts/{id}/segments/{segment_id} */
export const tool = routeTool({
  name: 'remove_contact_from_segment',
  scope: 'audience:write',
  route: 'DELETE /contacts/{id}/segments/{segment_id}',
  handler,
  description: 'Remove a contact (by id or email address) from a segment; the contact itself stays.',
});
