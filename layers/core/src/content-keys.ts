/**
 * Where content lives in the content-store bucket, by key prefix, and how long the receipt rule's
 * raw copies stay: the domain writes under these prefixes and the CDK stack grants access and sets
 * lifecycle rules by them, both reading them from here.
 */

/** Every email content key starts with this (the stack grants access under it only). */
export const CONTENT_KEY_PREFIX = 'emails/';

/**
 * Where mailbox mail lives. Mailbox mail stays until it is deleted, so it is kept apart from the
 * email content that expires with EMAIL_CONTENT_RETENTION_DAYS (`emails/`).
 */
export const MAILBOX_CONTENT_PREFIX = 'mailboxes/';

/** Where the SES receipt rule stores each inbound message in the content bucket (`inbound/<SES message id>`). */
export const INBOUND_RAW_PREFIX = 'inbound/';

/** Days the receipt rule's raw copies are kept (each mailbox copy is stored under its own key). */
export const INBOUND_RAW_RETENTION_DAYS = 7;

/**
 * Where a file too large for a Lambda's answer is copied for its download (an attachment, which
 * has no object of its own: it is read out of its message), then served by a short-lived link to
 * the copy. Under the email content prefix (the roles that serve downloads already reach it),
 * expiring after DOWNLOAD_COPY_RETENTION_DAYS.
 */
export const DOWNLOAD_COPY_PREFIX = `${CONTENT_KEY_PREFIX}downloads/`;

/** Days a download copy is kept (each download writes its copy again). */
export const DOWNLOAD_COPY_RETENTION_DAYS = 1;
