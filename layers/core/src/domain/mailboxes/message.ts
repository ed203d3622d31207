import { createHash } from 'node:crypto';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem } from '../../table/ops.ts';
import { notFound } from '../../errors/api-error.ts';
import type { MailboxFolder } from './mailbox.ts';

/**
 * A message of a mailbox (received now; sent and drafted ones later share the shape, with
 * `direction`). Its raw MIME is kept whole in the content store (the source of truth: the
 * attachments and any body too large for the row are read back from it); the row keeps the
 * parsed headers, addresses, small bodies and the attachment list.
 */
export interface MailboxMessage {
  readonly id: string;
  readonly teamId: string;
  readonly mailboxId: string;
  readonly threadId: string;
  readonly direction: 'inbound' | 'outbound';
  readonly folder: MailboxFolder;
  readonly from: string;
  readonly to: readonly string[];
  readonly cc: readonly string[];
  readonly bcc: readonly string[];
  readonly replyTo: readonly string[];
  /** The envelope recipients this copy was delivered for (the mailbox's address). */
  readonly receivedFor: readonly string[];
  readonly subject: string;
  /** The Message-ID header, without angle brackets. */
  readonly messageId: string;
  readonly inReplyTo: string | null;
  readonly references: readonly string[];
  /** Null when absent, or when too large for the row (`bodiesInRaw`: read back from the raw message). */
  readonly html: string | null;
  readonly text: string | null;
  readonly bodiesInRaw: boolean;
  readonly headers: Readonly<Record<string, string>>;
  readonly attachments: readonly MessageAttachment[];
  /** The provider's verdicts (SES receiving); null where none was given (the local listener). */
  readonly verdicts: Verdicts;
  readonly size: number;
  /** Where the raw MIME is in the content store. */
  readonly rawKey: string;
  readonly read: boolean;
  readonly createdAt: string;
}

/** One attachment of a message: metadata on the row, bytes in the raw message (`index` among its attachments). */
export interface MessageAttachment {
  readonly id: string;
  readonly index: number;
  readonly filename: string | null;
  readonly size: number;
  readonly contentType: string;
  readonly contentId: string | null;
  readonly contentDisposition: 'inline' | 'attachment';
}

/** A verdict as SES reports it (`PASS`, `FAIL`, `GRAY`, `PROCESSING_FAILED`, `DISABLED`), or null when none was made. */
type Verdict = string | null;
export interface Verdicts {
  readonly spam: Verdict;
  readonly virus: Verdict;
  readonly spf: Verdict;
  readonly dkim: Verdict;
  readonly dmarc: Verdict;
}

/** No verdicts at all (mail that no provider scanned, such as the local listener's). */
export const NO_VERDICTS: Verdicts = { spam: null, virus: null, spf: null, dkim: null, dmarc: null };

/** A Message-ID as stored and compared: without angle brackets or surrounding space. */
export const normalizeMessageId = (id: string): string => id.trim().replace(/^<|>$/g, '').trim();

/** A stored Message-ID as the header writes it, in angle brackets (the received emails' `message_id`). */
export const messageIdHeader = (id: string): string => `<${normalizeMessageId(id)}>`;

/** The hash a Message-ID is indexed under in its mailbox. */
export const messageIdHash = (id: string): string => createHash('sha256').update(normalizeMessageId(id)).digest('hex');

/** Item -> MailboxMessage. */
export const messageFromItem = (i: Record<string, any>): MailboxMessage => ({
  id: i.id,
  teamId: i.team_id,
  mailboxId: i.mailbox_id,
  threadId: i.thread_id,
  direction: i.direction,
  folder: i.folder,
  from: i.from,
  to: i.to ?? [],
  cc: i.cc ?? [],
  bcc: i.bcc ?? [],
  replyTo: i.reply_to ?? [],
  receivedFor: i.received_for ?? [],
  subject: i.subject ?? '',
  messageId: i.message_id,
  inReplyTo: i.in_reply_to ?? null,
  references: i.references ?? [],
  html: i.html ?? null,
  text: i.text ?? null,
  bodiesInRaw: i.bodies_in_raw === true,
  headers: i.headers ?? {},
  attachments: (i.attachments ?? []).map((a: Record<string, any>) => ({
    id: a.id,
    index: a.index,
    filename: a.filename ?? null,
    size: a.size,
    contentType: a.content_type,
    contentId: a.content_id ?? null,
    contentDisposition: a.content_disposition,
  })),
  verdicts: { ...NO_VERDICTS, ...(i.verdicts ?? {}) },
  size: i.size ?? 0,
  rawKey: i.raw_key,
  read: i.read === true,
  createdAt: i.created_at,
});

/**
 * A message's entry in its thread's item collection (base table), put in the same transaction
 * as the message row: what acts on every message of a thread reads these consistently.
 */
export const threadEntry = (teamId: string, mailboxId: string, threadId: string, messageId: string) => ({
  ...keys.mailbox.threadMessage(teamId, mailboxId, threadId, messageId),
  type: 'thread_message',
  message_id: messageId,
});

/** A team's message by id; another team's id (or a malformed one) answers 404. */
export const loadMessage = async (deps: Deps, teamId: string, id: string): Promise<MailboxMessage> => {
  const item = await getItem(deps, keys.message.item(teamId, id));
  if (!item) throw notFound('Email');
  return messageFromItem(item);
};

/** The message's raw MIME, from the content store. */
export const readRaw = async (deps: Deps, m: MailboxMessage): Promise<Buffer> => {
  const raw = await deps.content.get(m.rawKey);
  if (!raw) throw new Error(`message ${m.id}: its raw MIME ${m.rawKey} is missing from the content store`);
  return raw;
};

/** Parses raw MIME as the mailbox store reads it (attachments kept, no body conversions). */
export const parseMime = (raw: Buffer): Promise<ParsedMail> =>
  simpleParser(raw, {
    keepCidLinks: true,
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    skipImageLinks: true,
  });

/** The message with its bodies in hand (parsed back from the raw message when they were too large for the row). */
export const withBodies = async (deps: Deps, m: MailboxMessage): Promise<MailboxMessage> => {
  if (!m.bodiesInRaw) return m;
  const parsed = await parseMime(await readRaw(deps, m));
  return { ...m, html: typeof parsed.html === 'string' ? parsed.html : null, text: parsed.text ?? null };
};

/** One attachment's bytes, read from the raw message; 404 when the message has no such attachment. */
export const attachmentContent = async (
  deps: Deps,
  m: MailboxMessage,
  attachmentId: string,
): Promise<{ attachment: MessageAttachment; content: Buffer }> => {
  const attachment = m.attachments.find((a) => a.id === attachmentId);
  if (!attachment) throw notFound('Attachment');
  const parsed = await parseMime(await readRaw(deps, m));
  const part = parsed.attachments[attachment.index];
  if (!part) throw new Error(`message ${m.id}: attachment ${attachment.index} is missing from its raw message`);
  return { attachment, content: part.content };
};

/** The addresses of an address header, each as written (`Name <a@b>` or `a@b`). */
export const addressList = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : [])
    .flatMap((o) => o.value.flatMap((a) => (a.group ? a.group : [a])))
    .filter((a) => a.address)
    .map((a) => (a.name ? `${a.name} <${a.address}>` : a.address!));

/** The bare addresses of an address header (lower-cased). */
export const bareAddresses = (field: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(field) ? field : field ? [field] : [])
    .flatMap((o) => o.value.flatMap((a) => (a.group ? a.group : [a])))
    .flatMap((a) => (a.address ? [a.address.toLowerCase()] : []));
