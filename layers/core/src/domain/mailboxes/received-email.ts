import type { Deps } from '../../runtime/deps.ts';
import {
  attachmentContent,
  loadMessage,
  messageIdHeader,
  readRaw,
  withBodies,
  type MailboxMessage,
  type MessageAttachment,
} from './message.ts';
import { downloadLink, verifyDownload } from '../downloads.ts';
import { sentAttachmentFile } from '../emails/sent-attachments.ts';

/**
 * The reference receiving API over the mailbox store: received messages of the team (every
 * mailbox), their attachments, and signed download links for the raw message and each
 * attachment (what `resend.emails.receiving.forward` fetches without an API key).
 */

/** What a download link serves: the bytes and a file name (a received email's, or a sent email's attachment). */
export const download = async (
  deps: Deps,
  token: string,
): Promise<{ filename: string; content: Buffer } | undefined> => {
  const claims = await verifyDownload(deps, token);
  if (!claims) return undefined;
  if (claims.kind === 'sent')
    return claims.attachmentId
      ? sentAttachmentFile(deps, claims.teamId, claims.messageId, claims.attachmentId)
      : undefined;
  const m = await loadMessage(deps, claims.teamId, claims.messageId).catch(() => undefined);
  if (!m) return undefined;
  if (!claims.attachmentId) return { filename: `${m.id}.eml`, content: await readRaw(deps, m) };
  const found = await attachmentContent(deps, m, claims.attachmentId).catch(() => undefined);
  return found ? { filename: found.attachment.filename ?? found.attachment.id, content: found.content } : undefined;
};

const nullIfEmpty = (list: readonly string[]) => (list.length ? [...list] : null);

const attachmentMeta = (a: MessageAttachment) => ({
  id: a.id,
  filename: a.filename,
  size: a.size,
  content_type: a.contentType,
  content_id: a.contentId,
  content_disposition: a.contentDisposition,
});

/** The list row of a received email (the reference's ListReceivingEmail). */
export const receivedEmailRow = (m: MailboxMessage) => ({
  id: m.id,
  to: [...m.to],
  from: m.from,
  created_at: m.createdAt,
  subject: m.subject,
  bcc: nullIfEmpty(m.bcc),
  cc: nullIfEmpty(m.cc),
  reply_to: nullIfEmpty(m.replyTo),
  received_for: [...m.receivedFor],
  message_id: messageIdHeader(m.messageId),
  attachments: m.attachments.map(attachmentMeta),
});

/**
 * The full received email: bodies, headers and a signed link to its raw MIME. Inline images stay
 * `cid:` references unless `htmlFormat` is `data_uri` (the reference default), which inlines
 * each as a base64 data URI.
 */
export const receivedEmailView = async (
  deps: Deps,
  message: MailboxMessage,
  htmlFormat: 'data_uri' | 'cid' = 'data_uri',
) => {
  const m = await withBodies(deps, message);
  let html = m.html;
  const inline = m.attachments.filter((a) => a.contentId);
  if (
    html &&
    htmlFormat === 'data_uri' &&
    inline.length > 0 &&
    inline.some((a) => html!.includes(`cid:${a.contentId}`))
  ) {
    for (const a of inline) {
      if (!html.includes(`cid:${a.contentId}`)) continue;
      const { content } = await attachmentContent(deps, m, a.id);
      html = html.split(`cid:${a.contentId}`).join(`data:${a.contentType};base64,${content.toString('base64')}`);
    }
  }
  return {
    object: 'email' as const,
    ...receivedEmailRow(m),
    html,
    text: m.text,
    headers: { ...m.headers },
    raw: await downloadLink(deps, { teamId: m.teamId, messageId: m.id }),
  };
};

/** One attachment of a received email with its signed download link (404 when the email has none by that id). */
export const receivedAttachmentView = async (deps: Deps, m: MailboxMessage, a: MessageAttachment) => {
  // The attachment endpoints type content_id as a string, present for inline attachments only
  // (the email's own `attachments` list keeps it, null when absent, as the reference does there).
  const { content_id, ...meta } = attachmentMeta(a);
  return {
    ...meta,
    ...(content_id ? { content_id } : {}),
    ...(await downloadLink(deps, { teamId: m.teamId, messageId: m.id, attachmentId: a.id })),
  };
};
