import { QUEUED_STATUSES, type EmailItem, type EmailStatus, type LAST_EVENTS } from './email.ts';

/** The wire value of `last_event` for a stored status. */
export const lastEvent = (status: EmailStatus): (typeof LAST_EVENTS)[number] =>
  (QUEUED_STATUSES as readonly string[]).includes(status) ? 'queued' : (status as (typeof LAST_EVENTS)[number]);

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
  last_event:
    e.engagement && ['sent', 'delivered', 'delivery_delayed'].includes(e.status) ? e.engagement : lastEvent(e.status),
  tags: e.tags,
  topic_id: e.topic_id,
});
