import { handler } from '../../contacts/add-contact-segment.ts';
import { routeTool } from '../tool.ts';

/** POST /contacts/{id}/segments/{segment_id} */
export const tool = routeTool({
  name: 'add_contact_to_segment',
  scope: 'audience:write',
  route: 'POST /contacts/{id}/segments/{segment_id}',
  handler,
  description: 'Add a contact (by id or email address) to a segment.',
});
