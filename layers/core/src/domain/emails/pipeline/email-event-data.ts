import type { EmailItem } from '../email.ts';

/** The `data` of email.* events (reference §5.3): the email's identity, tags as a map. */
export const emailEventData = (e: EmailItem) => ({
  email_id: e.id,
  created_at: e.created_at,
  from: e.from,
  to: e.to,
  subject: e.subject,
  message_id: e.message_id,
  tags: Object.fromEntries(e.tags.map((t) => [t.name, t.value])),
  ...(e.broadcast_id ? { broadcast_id: e.broadcast_id } : {}),
});
