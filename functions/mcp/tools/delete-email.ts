import { handler } from '../../emails/delete-email.ts';
import { routeTool } from '../tool.ts';

/** DELETE /emails/{id} */
export const tool = routeTool({
  name: 'delete_email',
  scope: 'emails:send',
  route: 'DELETE /emails/{id}',
  handler,
  description:
    "Delete an email's record (its content, attachments and history). A queued or scheduled email is canceled first, so it is never sent.",
});
