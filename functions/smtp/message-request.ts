import { domainToASCII } from 'node:url';
import { simpleParser, type AddressObject, type EmailAddress } from 'mailparser';
import type { SendEmailRequest } from '@mailstack/core/schemas/emails';

/** A relayed message as the send use case takes it: the `POST /emails` body and what rides beside it. */
export interface RelayedMessage {
  /** The request an API client would have sent for this message. */
  readonly request: SendEmailRequest;
  /** The message's own Message-ID, kept as the email's message_id. */
  readonly messageId?: string;
  /** `Idempotency-Key` (or the reference's `Resend-Idempotency-Key`) header of the message. */
  readonly idempotencyKey?: string;
}

/**
 * Headers the request carries in its own fields, or that the service writes itself when it
 * composes the message (MIME structure, trace and signature headers). Every other header goes
 * to `headers` and meets the API's allowlist there.
 */
const STRUCTURAL = new Set([
  'from',
  'to',
  'cc',
  'bcc',
  'reply-to',
  'subject',
  'date',
  'message-id',
  'sender',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'content-disposition',
  'content-id',
  'content-description',
  'content-language',
  'received',
  'return-path',
  'dkim-signature',
  'user-agent',
  'idempotency-key',
  'resend-idempotency-key',
]);

type Mailbox = { name: string; address: string };

/** Mailboxes of an address header, group members included. */
const mailboxes = (field: AddressObject | AddressObject[] | undefined): Mailbox[] =>
  [field ?? []]
    .flat()
    .flatMap((o) => o.value)
    .flatMap((e: EmailAddress) => e.group ?? [e])
    .filter((e): e is Mailbox => typeof e.address === 'string' && e.address !== '');

/** `Name <address>`, the name quoted as RFC 5322 quoted-string (the API parses it back). */
const formatted = (m: Mailbox): string => (m.name ? `${JSON.stringify(m.name)} <${m.address}>` : m.address);

/** An address compared the way mail routing does: case-insensitive, domain in its ASCII form. */
const comparable = (address: string): string => {
  const at = address.lastIndexOf('@');
  return (
    at < 0 ? address : `${address.slice(0, at)}@${domainToASCII(address.slice(at + 1)) || address.slice(at + 1)}`
  ).toLowerCase();
};

const unfold = (line: string): string => line.replace(/\r?\n(?=[ \t])/g, '');

/**
 * Reads a raw message into the `POST /emails` request. The envelope recipients (RCPT TO) are
 * the true recipient list: header `To`/`Cc` addresses that are in the envelope stay visible,
 * every other envelope recipient is `bcc` (never shown), and header addresses outside the
 * envelope receive nothing. Attachments keep their bytes; a `multipart/related` part (an
 * inline `cid:` image) is passed with its content id, which the API's attachment rule refuses.
 */
export const toSendRequest = async (raw: Buffer, envelopeRecipients: readonly string[]): Promise<RelayedMessage> => {
  const mail = await simpleParser(raw, {
    keepCidLinks: true,
    skipHtmlToText: true,
    skipTextToHtml: true,
    skipTextLinks: true,
    skipImageLinks: true,
  });
  const envelope = new Map(envelopeRecipients.map((a) => [comparable(a), a]));
  const shown = new Set<string>();
  const visible = (list: Mailbox[]) =>
    list.filter((m) => {
      const key = comparable(m.address);
      if (!envelope.has(key) || shown.has(key)) return false;
      shown.add(key);
      return true;
    });
  const to = visible(mailboxes(mail.to));
  const cc = visible(mailboxes(mail.cc));
  const bcc = [...envelope].filter(([key]) => !shown.has(key)).map(([, address]) => address);

  const headers: Record<string, string> = {};
  let idempotencyKey: string | undefined;
  for (const { key, line } of mail.headerLines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim();
    const value = unfold(line.slice(colon + 1)).trim();
    if (key === 'idempotency-key' || (key === 'resend-idempotency-key' && idempotencyKey === undefined))
      idempotencyKey = value;
    if (STRUCTURAL.has(key)) continue;
    // A repeated header is kept under another spelling so the API's duplicate rule names it.
    const slot = name in headers ? (name === name.toUpperCase() ? name.toLowerCase() : name.toUpperCase()) : name;
    headers[slot] = value;
  }

  // A single-part body ends with the line ending that closes the DATA section, not part of the
  // content: dropped, so the record reads as POST /emails would store the same body.
  const contentType = (mail.headers.get('content-type') as { value?: string } | undefined)?.value ?? 'text/plain';
  const body = (s: string) => (contentType.startsWith('multipart/') ? s : s.replace(/\r?\n$/, ''));
  const html = typeof mail.html === 'string' ? body(mail.html) : undefined;
  const text = mail.text !== undefined ? body(mail.text) : html === undefined ? '' : undefined;
  const request: SendEmailRequest = {
    from: mailboxes(mail.from).map(formatted).join(', '),
    to: to.map(formatted),
    subject: mail.subject ?? '',
    ...(cc.length ? { cc: cc.map(formatted) } : {}),
    ...(bcc.length ? { bcc } : {}),
    ...(mail.replyTo ? { reply_to: mailboxes(mail.replyTo).map(formatted) } : {}),
    ...(html !== undefined ? { html } : {}),
    ...(text !== undefined ? { text } : {}),
    ...(Object.keys(headers).length ? { headers } : {}),
    ...(mail.attachments.length
      ? {
          attachments: mail.attachments.map((a, n) => ({
            filename: a.filename ?? `attachment-${n + 1}`,
            content: a.content.toString('base64'),
            content_type: a.contentType,
            ...(a.related && a.cid ? { content_id: a.cid } : {}),
          })),
        }
      : {}),
  };
  return {
    request,
    ...(mail.messageId ? { messageId: mail.messageId } : {}),
    ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
  };
};
