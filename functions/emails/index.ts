import { dispatch } from '@mailstack/core/http/dispatch';
import { areaRoutes } from '../routes.ts';
import { handler as sendEmail } from './send-email.ts';
import { handler as sendBatch } from './send-batch.ts';
import { handler as listEmails } from './list-emails.ts';
import { handler as getEmail } from './get-email.ts';
import { handler as getEmailMetrics } from './get-email-metrics.ts';
import { handler as updateEmail } from './update-email.ts';
import { handler as cancelEmail } from './cancel-email.ts';
import { handler as shareEmail } from './share-email.ts';
import { handler as deleteEmail } from './delete-email.ts';
import { handler as listEmailAttachments } from './list-email-attachments.ts';
import { handler as getEmailAttachment } from './get-email-attachment.ts';

/** The emails Lambda: every /emails route. Its routes, and the handler answering each, come from the route manifest. */
export const handler = dispatch(
  areaRoutes('emails', {
    'send-email': sendEmail,
    'send-batch': sendBatch,
    'list-emails': listEmails,
    'get-email': getEmail,
    'get-email-metrics': getEmailMetrics,
    'update-email': updateEmail,
    'cancel-email': cancelEmail,
    'share-email': shareEmail,
    'delete-email': deleteEmail,
    'list-email-attachments': listEmailAttachments,
    'get-email-attachment': getEmailAttachment,
  }),
);
