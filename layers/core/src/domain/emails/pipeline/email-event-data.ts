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

/**
 * The `data` of email.suppressed: the email as sent to the one recipient left out, and why (the
 * SDK's {type, message}; the reference's reason for bounces and complaints).
 */
export const suppressedEventData = (
  e: EmailItem,
  address: string,
  origin: 'bounce' | 'complaint' | 'unsubscribe' | 'manual',
) => ({
  ...emailEventData(e),
  to: [address],
  suppressed: {
    type: 'OnAccountSuppressionList',
    message: `${address} is on this team's suppression list (${origin}), so it was left out of this email.`,
    ...(origin === 'bounce'
      ? { reason: 'previous_bounce' }
      : origin === 'complaint'
        ? { reason: 'previous_complaint' }
        : {}),
    diagnosticCode: [],
  },
});
