import { handler } from '../../emails/share-email.ts';
import { routeTool } from '../tool.ts';

/** POST /emails/{id}/share */
export const tool = routeTool({
  name: 'share_email',
  scope: 'emails:send',
  route: 'POST /emails/{id}/share',
  handler,
  description:
    'Create a link to a read-only page of a sent or received email, for someone without an account. expires_in is a duration such as "10m", "2 hours" or "1 day" (48 hours at most, and by default).',
});
