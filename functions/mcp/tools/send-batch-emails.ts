import { handler } from '../../emails/send-batch.ts';
import { routeTool } from '../tool.ts';
import { SendEmailRequest } from '@mailstack/core/schemas/emails';

/** POST /emails/batch */
export const tool = routeTool({
  name: 'send_batch_emails',
  scope: 'emails:send',
  route: 'POST /emails/batch',
  handler,
  description:
    "Send up to 100 emails in one call, each with the fields of send_email. batch_validation 'strict' (default) refuses the whole batch if any item is invalid; 'permissive' sends the valid ones and reports the others by index. Returns the ids in request order.",
  bodyArgument: {
    name: 'emails',
    description: 'The emails to send (1 to 100), each an object with the fields of send_email.',
    items: SendEmailRequest,
  },
});
