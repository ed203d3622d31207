import { handler } from '../../emails/cancel-email.ts';
import { routeTool } from '../tool.ts';

/** POST /emails/{id}/cancel */
export const tool = routeTool({
  name: 'cancel_email',
  scope: 'emails:send',
  route: 'POST /emails/{id}/cancel',
  handler,
  description:
    'Cancel a scheduled email before it is sent. An email already handed to the provider cannot be canceled (409 conflict).',
});
