import type { ParsedMail } from 'mailparser';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { addToCounters, batchGetItems, getItem, transact, type Write } from '../../table/ops.ts';
import { CONTENT_INLINE_MAX_BYTES, DAILY_COUNTER_RETENTION_SECONDS, INBOUND_MAX_BYTES } from '../../limits.ts';
import { eventItem, publishEvents } from '../events/record-event.ts';
import { findMailboxByAddress, type Mailbox } from './mailbox.ts';
import { storageReceived } from './license.ts';
import { rawKeyOf } from './content-keys.ts';
import { countMetrics } from '../metrics/count-metrics.ts';
import { threadDigest } from './thread-digest.ts';
import { activityItem, type MailboxActor } from './activity.ts';
import {
  NO_VERDICTS,
  addressList,
  bareAddresses,
  messageIdHash,
  messageIdHeader,
  normalizeMessageId,
  parseMime,
  threadEntry,
  type MessageAttachment,
  type Verdicts,
} from './message.ts';

/** How a message arrived: its envelope recipients and what the provider made of it. */
export interface InboundEnvelope {
  /** RCPT TO addresses (SES: the receipt's recipients). */
  readonly recipients: readonly string[];
  /** MAIL FROM, when known. */
  readonly mailFrom?: string | undefined;
  /** SES verdicts; the local listener has none. */
  readonly verdicts?: Verdicts;
}

/** What became of one inbound message: a stored copy per mailbox, and the recipients no mailbox took. */
export interface InboundOutcome {
  readonly stored: readonly {
    readonly teamId: string;
    readonly mailboxId: string;
    readonly messageId: string;
    readonly threadId: string;
    readonly duplicate: boolean;
  }[];
  readonly dropped: readonly {
    readonly recipient: string;
    readonly reason: 'unknown_mailbox' | 'virus' | 'too_large';
  }[];
}

/** The day a drop is counted under (UTC). */
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Records mail no mailbox takes: a log line naming the recipient and why, and a count per day
 * (`INBOUND#DROPPED`). Nothing of it is stored in any team.
 */
const recordDrop = async (
  deps: Deps,
  recipient: string,
  reason: InboundOutcome['dropped'][number]['reason'],
  detail: Record<string, unknown> = {},
): Promise<void> => {
  deps.logger.warn('inbound mail dropped', { recipient, reason, ...detail });
  const now = deps.clock.now();
  await addToCounters(deps, keys.inbound.dropped(dayOf(now)), {
    add: { count: 1, [`count_${reason}`]: 1 },
    set: {
      type: 'inbound_drops',
      last_recipient: recipient,
      last_reason: reason,
      last_at: new Date(now).toISOString(),
    },
    expiresAt: Math.floor(now / 1000) + DAILY_COUNTER_RETENTION_SECONDS,
  });
};

const headerMap = (parsed: ParsedMail): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const line of parsed.headerLines) {
    const value = line.line
      .slice(line.line.indexOf(':') + 1)
      .replace(/\r?\n[ \t]+/g, ' ')
      .trim();
    out[line.key] = out[line.key] === undefined ? value : `${out[line.key]}, ${value}`;
  }
  return out;
};

const referencesOf = (parsed: ParsedMail): string[] => {
  const refs = typeof parsed.references === 'string' ? [parsed.references] : (parsed.references ?? []);
  return refs
    .flatMap((r) => r.split(/\s+/))
    .map(normalizeMessageId)
    .filter(Boolean);
};

/** The thread a message joins: the thread of the newest message it answers that this mailbox has, else a new one. */
const threadFor = async (
  deps: Deps,
  m: Mailbox,
  inReplyTo: string | null,
  references: readonly string[],
): Promise<string | undefined> => {
  const candidates = [...new Set([...(inReplyTo ? [inReplyTo] : []), ...[...references].reverse()])].slice(0, 50);
  if (candidates.length === 0) return undefined;
  const hashes = candidates.map(messageIdHash);
  const found = await batchGetItems(
    deps,
    hashes.map((h) => keys.mailbox.messageId(m.teamId, m.id, h)),
  );
  for (const h of hashes) {
    const hit = found.find((f) => f.sk.endsWith(h));
    if (hit) return hit.thread_id as string;
  }
  return undefined;
};

/** The mailbox row's counters on a received message: its time, and one more unread thread when one turns unread. */
const mailboxReceived = (m: Mailbox, at: string, unread: 0 | 1): Write => ({
  update: keys.mailbox.item(m.teamId, m.id),
  change: { set: { last_received_at: at }, ...(unread ? { add: { unread_count: unread } } : {}) },
  when: { exists: true },
});

/** Stores one copy of a parsed message in one mailbox (idempotent per Message-ID: a redelivery finds the first copy). */
const storeCopy = async (
  deps: Deps,
  m: Mailbox,
  raw: Buffer,
  parsed: ParsedMail,
  envelope: InboundEnvelope,
  recipient: string,
): Promise<InboundOutcome['stored'][number]> => {
  const id = deps.ids.next();
  const now = new Date(deps.clock.now()).toISOString();
  const domain = m.address.slice(m.address.indexOf('@') + 1);
  const messageId = parsed.messageId ? normalizeMessageId(parsed.messageId) : `${id}@${domain}`;
  const ownKey = keys.mailbox.messageId(m.teamId, m.id, messageIdHash(messageId));
  const seen = await getItem(deps, ownKey);
  if (seen)
    return { teamId: m.teamId, mailboxId: m.id, messageId: seen.message_id, threadId: seen.thread_id, duplicate: true };

  const inReplyTo = parsed.inReplyTo ? normalizeMessageId(parsed.inReplyTo.split(/\s+/)[0] ?? '') || null : null;
  const references = referencesOf(parsed);
  const existingThread = await threadFor(deps, m, inReplyTo, references);
  const threadId = existingThread ?? deps.ids.next();
  const verdicts = { ...NO_VERDICTS, ...envelope.verdicts };
  const folder = verdicts.spam === 'FAIL' ? 'spam' : 'inbox';
  const html = typeof parsed.html === 'string' ? parsed.html : null;
  const text = parsed.text ?? null;
  const bodiesInRaw = Buffer.byteLength(html ?? '') + Buffer.byteLength(text ?? '') > CONTENT_INLINE_MAX_BYTES;
  const attachments: MessageAttachment[] = parsed.attachments.map((a, index) => ({
    id: deps.ids.next(),
    index,
    filename: a.filename ?? null,
    size: a.size ?? a.content.length,
    contentType: a.contentType,
    contentId: a.contentId ? normalizeMessageId(a.contentId) : null,
    contentDisposition: a.contentDisposition === 'inline' ? 'inline' : 'attachment',
  }));
  const from = addressList(parsed.from)[0] ?? envelope.mailFrom ?? '';
  const to = addressList(parsed.to);
  const cc = addressList(parsed.cc);
  const bcc = addressList(parsed.bcc);
  const subject = parsed.subject ?? '';
  const sender: MailboxActor = { actor: `sender:${from}`, actorName: from, via: 'inbound' };

  // The raw message first: a row never names content that is not there (content of a copy
  // that was never recorded is found by nothing, and a redelivery writes its own).
  const rawKey = rawKeyOf(m.teamId, id);
  await deps.content.put(rawKey, raw);

  const attachmentRows = attachments.map((a) => ({
    id: a.id,
    index: a.index,
    filename: a.filename,
    size: a.size,
    content_type: a.contentType,
    content_id: a.contentId,
    content_disposition: a.contentDisposition,
  }));
  const item = {
    ...keys.message.item(m.teamId, id),
    ...keys.message.folderListing(m.teamId, m.id, folder, id),
    ...keys.message.receivedListing(m.teamId, id),
    ...keys.message.threadListing(m.teamId, threadId, id),
    type: 'message',
    id,
    team_id: m.teamId,
    mailbox_id: m.id,
    thread_id: threadId,
    direction: 'inbound',
    folder,
    from,
    to,
    cc,
    bcc,
    reply_to: addressList(parsed.replyTo),
    received_for: [recipient.toLowerCase()],
    subject,
    message_id: messageId,
    in_reply_to: inReplyTo,
    references,
    html: bodiesInRaw ? null : html,
    text: bodiesInRaw ? null : text,
    bodies_in_raw: bodiesInRaw,
    headers: headerMap(parsed),
    attachments: attachmentRows,
    verdicts,
    size: raw.length,
    raw_key: rawKey,
    read: false,
    labels: [],
    created_at: now,
  };
  const received = eventItem(deps, m.teamId, 'email.received', {
    email_id: id,
    created_at: now,
    from,
    to: bareAddresses(parsed.to),
    bcc: bareAddresses(parsed.bcc),
    cc: bareAddresses(parsed.cc),
    received_for: [recipient.toLowerCase()],
    message_id: messageIdHeader(messageId),
    subject,
    attachments: attachments.map((a) => ({
      id: a.id,
      filename: a.filename,
      content_type: a.contentType,
      content_disposition: a.contentDisposition,
      content_id: a.contentId,
    })),
  });
  const hasAttachment = attachments.some((a) => a.contentDisposition === 'attachment');
  const threadKey = keys.mailbox.thread(m.teamId, m.id, threadId);
  // The thread shows its latest message's people (the SDK's thread list).
  const people = { last_from: from, last_to: to, last_cc: cc, last_bcc: bcc };
  const digestOf = (previous: Record<string, unknown> | undefined) =>
    threadDigest(previous, { subject, text, from, recipients: [...to, ...cc, ...bcc] });
  const threadWrite = (previous: Record<string, unknown> | undefined): Write =>
    existingThread
      ? {
          update: threadKey,
          change: {
            add: { message_count: 1 },
            set: {
              gsi1sk: `${now}#${threadId}`,
              last_message_at: now,
              read: false,
              ...people,
              ...digestOf(previous),
              ...(hasAttachment ? { has_attachment: true } : {}),
            },
          },
          when: { and: [{ exists: true }, { attr: 'read', eq: previous?.read === true }] },
        }
      : {
          put: {
            ...threadKey,
            ...keys.mailbox.threadListing(m.teamId, m.id, folder, now, threadId),
            type: 'thread',
            id: threadId,
            team_id: m.teamId,
            mailbox_id: m.id,
            subject,
            folder,
            labels: [],
            read: false,
            message_count: 1,
            has_attachment: hasAttachment,
            ...people,
            ...digestOf(undefined),
            created_at: now,
            last_message_at: now,
          },
          when: { exists: false },
        };
  // The inbox events of the SDK: the email received, and the thread it started.
  const inboxEmail = {
    source: 'system',
    inbox_id: m.id,
    thread_id: threadId,
    email_id: id,
    email: {
      id,
      direction: 'inbound',
      from,
      to,
      cc,
      bcc,
      reply_to: item.reply_to,
      subject: subject || null,
      message_id: messageId,
      attachments: attachments.map((a) => ({ id: a.id, filename: a.filename, size: a.size })),
      read: false,
      received_at: now,
    },
  };
  const inboxEvents = [
    ...(existingThread ? [] : [eventItem(deps, m.teamId, 'inbox.thread.created', inboxEmail)]),
    eventItem(deps, m.teamId, 'inbox.email.received', inboxEmail),
  ];
  // The mailbox's counters move in the same write (spec: counted on write, never by a scan): a
  // thread that turns unread counts one more unread; the thread's read state is the condition,
  // so two messages to one read thread at once count it once (the loser writes again).
  for (let attempt = 0; ; attempt++) {
    const previous = existingThread ? await getItem(deps, threadKey) : undefined;
    const wasRead = previous?.read === true;
    const written = await transact(deps, [
      { put: { ...ownKey, type: 'message_id', message_id: id, thread_id: threadId }, when: { exists: false } },
      { put: item },
      threadWrite(previous),
      { put: received.item },
      storageReceived(m.teamId, raw.length),
      mailboxReceived(m, now, existingThread && !wasRead ? 0 : 1),
      ...inboxEvents.map((e) => ({ put: e.item })),
      { put: threadEntry(m.teamId, m.id, threadId, id) },
      // The mailbox's activity lists the message received, written with it.
      { put: activityItem(deps, m.teamId, m.id, sender, 'receive', id, subject) },
    ]);
    if (written.ok) break;
    if (written.failed === 2 && attempt < 3) continue;
    // A concurrent delivery of the same message won: its copy is the one.
    const winner = await getItem(deps, ownKey);
    if (written.failed === 0 && winner)
      return {
        teamId: m.teamId,
        mailboxId: m.id,
        messageId: winner.message_id,
        threadId: winner.thread_id,
        duplicate: true,
      };
    throw new Error(
      `inbound message ${messageId} for ${m.address}: its thread ${threadId} or its mailbox changed meanwhile; the delivery is retried`,
    );
  }
  // Counted once: a duplicate delivery of the message fails the guard above.
  await countMetrics(deps, { team_id: m.teamId, id, domain_id: m.domainId }, { received: 1 });
  await publishEvents(deps, [received.record, ...inboxEvents.map((e) => e.record)]);
  deps.logger.info('inbound mail stored', {
    team_id: m.teamId,
    mailbox_id: m.id,
    message_id: id,
    thread_id: threadId,
    size: raw.length,
  });
  return { teamId: m.teamId, mailboxId: m.id, messageId: id, threadId, duplicate: false };
};

/**
 * Receives one inbound message (SES receiving on AWS, the local listener on a laptop): each
 * envelope recipient that is a mailbox gets its own copy in that mailbox's team, in the thread
 * its In-Reply-To / References name (else a new one), with an `email.received` event. Recipients
 * no mailbox has are dropped with a record, never stored anywhere; so is mail the provider found
 * a virus in, and mail past INBOUND_MAX_BYTES.
 */
export const receiveInbound = async (deps: Deps, raw: Buffer, envelope: InboundEnvelope): Promise<InboundOutcome> => {
  const recipients = [...new Set(envelope.recipients.map((r) => r.trim().toLowerCase()))];
  const dropped: InboundOutcome['dropped'][number][] = [];
  const drop = async (
    recipient: string,
    reason: InboundOutcome['dropped'][number]['reason'],
    detail: Record<string, unknown> = {},
  ) => {
    dropped.push({ recipient, reason });
    await recordDrop(deps, recipient, reason, { mail_from: envelope.mailFrom, size: raw.length, ...detail });
  };
  if (raw.length > INBOUND_MAX_BYTES) {
    for (const r of recipients) await drop(r, 'too_large', { limit: INBOUND_MAX_BYTES });
    return { stored: [], dropped };
  }
  const targets: { recipient: string; mailbox: Mailbox }[] = [];
  for (const recipient of recipients) {
    const mailbox = await findMailboxByAddress(deps, recipient);
    if (!mailbox) await drop(recipient, 'unknown_mailbox');
    else if (envelope.verdicts?.virus === 'FAIL')
      await drop(recipient, 'virus', { team_id: mailbox.teamId, mailbox_id: mailbox.id });
    else targets.push({ recipient, mailbox });
  }
  if (targets.length === 0) return { stored: [], dropped };
  const parsed = await parseMime(raw);
  const stored = [];
  for (const t of targets) stored.push(await storeCopy(deps, t.mailbox, raw, parsed, envelope, t.recipient));
  return { stored, dropped };
};

/** Whether an address is a mailbox of this service (the SMTP listener's RCPT TO check). */
export const isMailboxAddress = async (deps: Deps, address: string): Promise<boolean> =>
  (await findMailboxByAddress(deps, address)) !== undefined;
