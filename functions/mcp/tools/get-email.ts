import { handler } from '../../emails/get-email.ts';
import { routeTool } from '../tool.ts';

/** GET /emails/{id} */
export const tool = routeTool({
  name: 'get_email',
  scope: 'emails:read',
  route: 'GET /emails/{id}',
  handler,
  description:
    'Get one email by id: addresses, subject, bodies, tags, scheduled_at and last_event (its delivery status).',
});
