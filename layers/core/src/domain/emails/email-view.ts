import { QUEUED_STATUSES, type EmailItem, type EmailStatus, type LAST_EVENTS } from './email.ts';

/** The wire value of `last_event` for a stored status. */
export const lastEvent = (status: EmailStatus): (typeof LAST_EVENTS)[number] =>
  (QUEUED_STATUSES as readonly string[]).includes(status) ? 'queued' : (status as (typeof LAST_EVENTS)[number]);

/**
 * The status an email shows: `last_event` on the wire, and the dashboard's badge and status filter.
 * A person's open or click outranks the delivery state it followed (sent, delivered, delayed); a
 * bounce, complaint or any other state shows as stored.
 */
export const displayedStatus = (e: Pick<EmailItem, 'status' | 'engagement'>): (typeof LAST_EVENTS)[number] =>
  e.engagement && ['sent', 'delivered', 'delivery_delayed'].includes(e.status) ? e.engagement : lastEvent(e.status);

/** The Email object of GET /emails/{id} (reference §3.1), every field present, null where empty. */
export const emailView = (e: EmailItem) => ({
  object: 'email' as const,
  id: e.id,
  message_id: e.message_id,
  from: e.from,
  to: e.to,
  cc: e.cc.length ? e.cc : null,
  bcc: e.bcc.length ? e.bcc : null,
  reply_to: e.reply_to.length ? e.reply_to : null,
  subject: e.subject,
  html: e.html,
  text: e.text,
  created_at: e.created_at,
  scheduled_at: e.scheduled_at,
  last_event: displayedStatus(e),
  tags: e.tags,
  topic_id: e.topic_id,
});
