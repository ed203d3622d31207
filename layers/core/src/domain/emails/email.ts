import { keys } from '../../table/keys.ts';
import type { ContentRefs } from './email-content.ts';

/**
 * The email record shared by the accept path (API) and the send pipeline (workers).
 * Stored at keys.email.item(teamId, id); attachments, when present, in chunk items
 * keys.email.attachment(teamId, id, n) so an email stays under the 400 KB item limit. Bodies and
 * attachments past CONTENT_INLINE_MAX_BYTES live in the content store instead (`content_refs`).
 */

/**
 * The states an email shows on the wire (`last_event`), in the order it moves through them: the
 * schemas, the dashboard's filter and the MCP tools' descriptions read this list.
 */
export const LAST_EVENTS = [
  'scheduled', // waiting for scheduled_at
  'queued', // accepted, waiting for the send worker
  'sent', // the provider accepted it
  'delivered',
  'delivery_delayed',
  'bounced',
  'complained',
  'opened',
  'clicked',
  'failed', // the provider refused it permanently (reason in failure_reason)
  'canceled',
  'suppressed', // every recipient was suppressed after acceptance
] as const;

/** Stored states the wire shows as `queued`. */
export const QUEUED_STATUSES = [
  'queued_quota', // parked past the daily cap (cloud, daily plans); drains after UTC midnight
  'sending', // claimed by a send worker
  'held', // waiting for review: a new team imitating a bank, carrier, tax office or security notice
] as const;

/** Every state an email is stored in. */
export type EmailStatus = (typeof LAST_EVENTS)[number] | (typeof QUEUED_STATUSES)[number];

/** States from which the email can still leave, or be canceled. */
export const PRE_SEND_STATUSES: readonly EmailStatus[] = ['queued', 'scheduled', 'queued_quota', 'held'];

/** States a send worker may claim the email from. */
export const CLAIMABLE_STATUSES: readonly EmailStatus[] = ['queued', 'scheduled'];

/** Whether a scheduled email's time has come (a second early counts: timers fire early). */
export const isDue = (e: Pick<EmailItem, 'status' | 'scheduled_at'>, now: number): boolean =>
  e.status !== 'scheduled' || !e.scheduled_at || Date.parse(e.scheduled_at) <= now + 1000;

/**
 * The index entries of an email that waits: queued and scheduled mail is due at the provider
 * (at acceptance or at scheduled_at), parked mail is due for release at `parkedUntil`, held
 * mail waits in its team's held list. Mail that has left has none.
 */
export const waitingKeys = (
  e: Pick<EmailItem, 'id' | 'team_id' | 'status' | 'created_at' | 'scheduled_at'>,
  parkedUntil?: string,
) => {
  switch (e.status) {
    case 'queued':
      return keys.email.sendDue(e.id, e.created_at);
    case 'scheduled':
      return keys.email.sendDue(e.id, e.scheduled_at ?? e.created_at);
    case 'queued_quota':
      return keys.email.parkedDue(e.id, parkedUntil ?? e.created_at);
    case 'held':
      return keys.email.held(e.team_id, e.id);
    default:
      return {};
  }
};

/** The email item's attributes (besides the generic key attributes). */
export interface EmailItem {
  readonly type: 'email';
  readonly id: string;
  readonly team_id: string;
  /** Accepted addresses read back as `Name <user@host>` or a bare address. */
  readonly from: string;
  readonly to: string[];
  readonly cc: string[];
  readonly bcc: string[];
  readonly reply_to: string[];
  readonly subject: string;
  /**
   * The bodies when on the row; null when in the email's body item (`bodies_apart`) or in the
   * content store (a ref in `content_refs`). Read them with `withBodies`.
   */
  readonly html: string | null;
  readonly text: string | null;
  /** The bodies are in the email's body item (keys.email.body), not on the row (email-content.ts). */
  readonly bodies_apart?: true;
  /** The parts of the content kept in the content store (absent: all on the row). */
  readonly content_refs?: ContentRefs;
  readonly headers: Record<string, string> | null;
  readonly tags: { name: string; value: string }[];
  readonly topic_id: string | null;
  /** Number of attachment chunk items (0 when none). */
  readonly attachment_chunks: number;
  /** Attachment metadata (content lives in the chunk items, or in the content store per `content_refs`). */
  readonly attachments: { filename: string; content_type: string; size: number }[];
  readonly status: EmailStatus;
  readonly created_at: string;
  readonly scheduled_at: string | null;
  /**
   * RFC 5322 Message-ID of the message: the one we write (`<id@domain>`) until the provider sent
   * it, then the one the provider wrote in its place (SES replaces it), which recipients see.
   */
  readonly message_id: string;
  /** The provider's id once sent. */
  readonly provider_message_id: string | null;
  /** The sending domain's id and delivery region. */
  readonly domain_id: string;
  readonly region: string;
  /** Open and click tracking, from the sending domain's switches at accept time (absent: off). */
  readonly open_tracking?: boolean;
  readonly click_tracking?: boolean;
  /** Send attempts made by the worker (throttling retries included). */
  readonly attempts: number;
  readonly failure_reason: string | null;
  readonly updated_at: string;
  /** Broadcast mail: the broadcast, the contact it goes to, and its planned send instant. */
  readonly broadcast_id?: string;
  readonly contact_id?: string;
  readonly slot_at?: string;
  /** When the provider accepted it (tracking's too-soon rule). */
  readonly sent_at?: string;
  /** A person opened or clicked it (tracking); shown as last_event after sent/delivered. */
  readonly engagement?: 'opened' | 'clicked';
  /** The send worker's claim while `sending`: a token and the lease end (epoch ms). */
  readonly claim_token?: string | null;
  readonly claimed_until?: number | null;
  /** The event of the latest status change, stored after the change (pipeline/status-event.ts). */
  readonly event_id?: string;
  /** A mailbox's outgoing message: the mailbox, the sent copy's id and its thread (domain/mailboxes). */
  readonly mailbox_sent?: MailboxSent;
}

/** Where a mailbox keeps the message an email sends: the Message-ID recipients see is indexed there once known. */
export interface MailboxSent {
  readonly mailbox_id: string;
  readonly message_id: string;
  readonly thread_id: string;
}

/** The message on the send queue: which email to send. The worker re-reads the item. */
export interface SendJob {
  readonly teamId: string;
  readonly emailId: string;
  /** The place in the provider send line this job booked (pacing, table/send-slots.ts): it calls at that place's instant without taking another. */
  readonly place?: number;
  /** The shard of the region's send line its place is on (table/line-shards.ts); absent: its id's shard. */
  readonly shard?: number;
  /** Set on the retries of an email SES refused because the team's tenant was paused: its send, once through, lifts that pause. */
  readonly tenantPaused?: true;
}

/** The queue an email's send job goes to: broadcast mail has its own, so transactional mail never waits behind it. */
export const sendQueueOf = (
  config: { SEND_QUEUE_URL: string; BROADCAST_QUEUE_URL: string },
  e: Pick<EmailItem, 'broadcast_id'>,
): string => (e.broadcast_id && config.BROADCAST_QUEUE_URL ? config.BROADCAST_QUEUE_URL : config.SEND_QUEUE_URL);
