import { dispatch } from '@mailstack/core/http/dispatch';
import { areaRoutes } from '../routes.ts';
import { handler as listReceivedEmails } from './list-received-emails.ts';
import { handler as getReceivedEmail } from './get-received-email.ts';
import { handler as listReceivedAttachments } from './list-received-attachments.ts';
import { handler as getReceivedAttachment } from './get-received-attachment.ts';
import { handler as download } from './download.ts';

/** The receiving Lambda (received mail of the mailboxes). Its routes come from the route manifest. */
export const handler = dispatch(
  areaRoutes('receiving', {
    'list-received-emails': listReceivedEmails,
    'get-received-email': getReceivedEmail,
    'list-received-attachments': listReceivedAttachments,
    'get-received-attachment': getReceivedAttachment,
    download,
  }),
);
