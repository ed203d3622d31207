/**
 * Where mailbox mail lives in the content store. Mailbox mail stays until it is deleted, so it is
 * kept apart from the email content that expires with EMAIL_CONTENT_RETENTION_DAYS (`emails/`).
 */
export const MAILBOX_CONTENT_PREFIX = 'mailboxes/';

/** The content-store key of a message's raw MIME: `mailboxes/<team>/<message>/raw.eml`. */
export const rawKeyOf = (teamId: string, messageId: string): string =>
  `${MAILBOX_CONTENT_PREFIX}${teamId}/${messageId}/raw.eml`;

/** Where the SES receipt rule stores each inbound message in the content bucket (`inbound/<SES message id>`). */
export const INBOUND_RAW_PREFIX = 'inbound/';

/** Days the receipt rule's raw copies are kept (each mailbox copy is stored under its own key). */
export const INBOUND_RAW_RETENTION_DAYS = 7;
