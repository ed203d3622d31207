import { dispatch } from '@mailstack/core/http/dispatch';
import { handler as sendEmail } from './send-email.ts';
import { handler as sendBatch } from './send-batch.ts';
import { handler as listEmails } from './list-emails.ts';
import { handler as getEmail } from './get-email.ts';
import { handler as updateEmail } from './update-email.ts';
import { handler as cancelEmail } from './cancel-email.ts';
import { handler as deleteEmail } from './delete-email.ts';

/** The emails Lambda: every /emails route. */
export const handler = dispatch({
  'POST /emails': sendEmail,
  'POST /emails/batch': sendBatch,
  'GET /emails': listEmails,
  'GET /emails/{id}': getEmail,
  'PATCH /emails/{id}': updateEmail,
  'POST /emails/{id}/cancel': cancelEmail,
  'DELETE /emails/{id}': deleteEmail,
});
