import type { Deps } from '../../runtime/deps.ts';
import { notFound } from '../../errors/api-error.ts';
import {
  attachmentContent,
  loadMessage,
  readRaw,
  withBodies,
  type MailboxMessage,
  type MessageAttachment,
} from './message.ts';
import { listReceivedMessages } from './read-messages.ts';
import { downloadLink, verifyDownload } from '../downloads.ts';
import { pageOf, type Page, type PageRequest } from '../paging.ts';
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

/**
 * A received message of the team (404 for another team's, for mail this service sent, and for
 * a mailbox outside `within` when the caller is restricted to some mailboxes).
 */
export const getReceivedMessage = async (
  deps: Deps,
  teamId: string,
  id: string,
  within?: readonly string[],
): Promise<MailboxMessage> => {
  const m = await loadMessage(deps, teamId, id);
  if (m.direction !== 'inbound' || (within && !within.includes(m.mailboxId))) throw notFound('Email');
  return m;
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
const receivedEmailRow = (m: MailboxMessage) => ({
  id: m.id,
  to: [...m.to],
  from: m.from,
  created_at: m.createdAt,
  subject: m.subject,
  bcc: nullIfEmpty(m.bcc),
  cc: nullIfEmpty(m.cc),
  reply_to: nullIfEmpty(m.replyTo),
  received_for: [...m.receivedFor],
  message_id: m.messageId,
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

/** A page of the team's received emails (only those of `within`'s mailboxes when given), newest first. */
export const listReceivedEmails = async (
  deps: Deps,
  teamId: string,
  page: PageRequest,
  within?: readonly string[],
): Promise<Page<ReturnType<typeof receivedEmailRow>>> => {
  const { items, hasMore } = await listReceivedMessages(deps, teamId, page, within);
  return { items: items.map(receivedEmailRow), hasMore };
};

/** One attachment of a received email with its signed download link (404 when the email has none by that id). */
const receivedAttachmentView = async (deps: Deps, m: MailboxMessage, a: MessageAttachment) => ({
  ...attachmentMeta(a),
  ...(await downloadLink(deps, { teamId: m.teamId, messageId: m.id, attachmentId: a.id })),
});

/** A page of a received email's attachments, in message order, with download links. */
export const listReceivedAttachments = async (
  deps: Deps,
  teamId: string,
  id: string,
  page: PageRequest,
  within?: readonly string[],
): Promise<Page<Awaited<ReturnType<typeof receivedAttachmentView>>>> => {
  const m = await getReceivedMessage(deps, teamId, id, within);
  const { items, hasMore } = pageOf(m.attachments, page);
  return { items: await Promise.all(items.map((a) => receivedAttachmentView(deps, m, a))), hasMore };
};

/** One attachment of a received email. */
export const getReceivedAttachment = async (
  deps: Deps,
  teamId: string,
  id: string,
  attachmentId: string,
  within?: readonly string[],
) => {
  const m = await getReceivedMessage(deps, teamId, id, within);
  const a = m.attachments.find((x) => x.id === attachmentId);
  if (!a) throw notFound('Attachment');
  return { object: 'attachment' as const, ...(await receivedAttachmentView(deps, m, a)) };
};
