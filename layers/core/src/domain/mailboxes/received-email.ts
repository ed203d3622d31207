import type { Deps } from '../../runtime/deps.ts';
import {
  attachmentContent,
  loadMessage,
  messageIdHeader,
  withBodies,
  type MailboxMessage,
  type MessageAttachment,
} from './message.ts';
import { downloadLink, verifyDownload } from '../downloads.ts';
import { sentAttachmentFile } from '../emails/sent-attachments.ts';
import { DOWNLOAD_REDIRECT_SECONDS, MAX_INLINE_DOWNLOAD_BYTES } from '../../limits.ts';
import { DOWNLOAD_COPY_PREFIX } from '../../content-keys.ts';
import { bodyWithinAnswer } from '../answer-bodies.ts';

/**
 * The reference receiving API over the mailbox store: received messages of the team (every
 * mailbox), their attachments, and signed download links for the raw message and each
 * attachment (what `resend.emails.receiving.forward` fetches without an API key).
 */

/**
 * What a download link serves: the bytes and a file name, or, for a file past
 * MAX_INLINE_DOWNLOAD_BYTES (too large for a Lambda's answer), a short-lived link to it in the
 * content store (`location`): a received message's raw MIME is its own object; an attachment is
 * copied to its own object first (DOWNLOAD_COPY_PREFIX).
 */
type DownloadFile =
  | { readonly filename: string; readonly content: Buffer }
  | { readonly filename: string; readonly location: string };

/** The key of a download copy of a message's attachment. */
const copyKey = (teamId: string, messageId: string, attachmentId: string) =>
  `${DOWNLOAD_COPY_PREFIX}${teamId}/${messageId}/${attachmentId}`;

/** The file as served: inline when small, else copied (unless it is already its own object) and linked. */
const servedFile = async (
  deps: Deps,
  filename: string,
  size: number,
  file: { readonly key: string } | { readonly copyTo: string; readonly content: () => Promise<Buffer> },
): Promise<DownloadFile> => {
  if (size <= MAX_INLINE_DOWNLOAD_BYTES) {
    const content = 'key' in file ? await deps.content.get(file.key) : await file.content();
    if (!content) throw new Error(`download ${filename}: its object is missing from the content store`);
    return { filename, content };
  }
  let key: string;
  if ('key' in file) key = file.key;
  else {
    key = file.copyTo;
    await deps.content.put(key, await file.content());
  }
  return { filename, location: await deps.content.link(key, { filename, seconds: DOWNLOAD_REDIRECT_SECONDS }) };
};

/** What a download link serves (undefined: the link is unknown, tampered with or expired, or names nothing now). */
export const download = async (deps: Deps, token: string): Promise<DownloadFile | undefined> => {
  const claims = await verifyDownload(deps, token);
  if (!claims) return undefined;
  if (claims.kind === 'sent') {
    if (!claims.attachmentId) return undefined;
    const found = await sentAttachmentFile(deps, claims.teamId, claims.messageId, claims.attachmentId);
    return found
      ? servedFile(deps, found.filename, found.size, {
          copyTo: copyKey(claims.teamId, claims.messageId, claims.attachmentId),
          content: found.content,
        }).catch(() => undefined)
      : undefined;
  }
  const m = await loadMessage(deps, claims.teamId, claims.messageId).catch(() => undefined);
  if (!m) return undefined;
  const attachmentId = claims.attachmentId;
  if (!attachmentId) return servedFile(deps, `${m.id}.eml`, m.size, { key: m.rawKey });
  const attachment = m.attachments.find((a) => a.id === attachmentId);
  if (!attachment) return undefined;
  return servedFile(deps, attachment.filename ?? attachment.id, attachment.size, {
    copyTo: copyKey(m.teamId, m.id, attachment.id),
    content: async () => (await attachmentContent(deps, m, attachmentId)).content,
  }).catch(() => undefined);
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
  // Inline images as data URIs make the html larger still: past what one answer carries, null.
  const bodies = bodyWithinAnswer({ html, text: m.text });
  return {
    object: 'email' as const,
    ...receivedEmailRow(m),
    html: bodies.html,
    text: bodies.text,
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
