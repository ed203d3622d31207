import type { Mailbox } from './mailbox.ts';
import type { MailboxActor } from './activity.ts';

/** Where an inbox event came from (the SDK's InboxEventSource). */
export type InboxEventSource = 'api' | 'dashboard' | 'agent' | 'system';

/** The source of an event a mailbox actor caused: an API key, a person in the dashboard, or an agent's key or grant. */
export const sourceOf = (who: MailboxActor): InboxEventSource =>
  who.actor.startsWith('api_key:') ? 'api' : who.via === 'dashboard' ? 'dashboard' : 'agent';

/** An inbox as lists show it (the reference's `Inbox`). */
export const inboxRow = (m: Mailbox) => ({
  id: m.id,
  name: m.title,
  email_address: m.address,
  from_name: m.name,
  unread: m.unread,
  last_received: m.lastReceivedAt,
  created_at: m.createdAt,
  updated_at: m.updatedAt,
});

/** One inbox (the reference's `GetInboxResponseSuccess`); mail arrives at its own address, so no receiving address. */
export const inboxView = (m: Mailbox) => ({
  object: 'inbox' as const,
  ...inboxRow(m),
  name: m.title ?? m.address,
  domain_id: m.domainId,
  receiving_address: null,
  drafts: m.drafts,
});
