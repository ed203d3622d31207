import { v5 as uuidV5 } from 'uuid';
import type { Deps } from '../../runtime/deps.ts';
import { notFound } from '../../errors/api-error.ts';
import { downloadLink } from '../downloads.ts';
import { getEmail } from './get-email.ts';
import type { EmailItem } from './email.ts';
import { attachmentParts } from './email-content.ts';
import { pageOf, type Page } from '../paging.ts';
import type { Pagination } from '../../schemas/common.ts';

/**
 * The attachments of an email the team sent (`resend.emails.attachments.list/get`): their
 * metadata from the email's row, each with a signed download link that works for an hour. An
 * attachment's id is derived from the email's id and its position, so it is the same on every read.
 */

/** The stable id of the email's `n`th attachment (a UUID named by the email's id). */
const attachmentId = (emailId: string, n: number): string => uuidV5(String(n), emailId);

const view = async (deps: Deps, e: EmailItem, n: number) => {
  const a = e.attachments[n]!;
  const id = attachmentId(e.id, n);
  return {
    id,
    filename: a.filename,
    size: a.size,
    content_type: a.content_type,
    // No content_id: a sent attachment is never inline (the reference types it a string, for inline ones).
    content_disposition: 'attachment' as const,
    ...(await downloadLink(deps, { teamId: e.team_id, messageId: e.id, attachmentId: id, kind: 'sent' })),
  };
};

/** A page of a sent email's attachments, in the order they were sent (404 for another team's email). */
export const listSentAttachments = async (
  deps: Deps,
  teamId: string,
  emailId: string,
  page: Pagination,
): Promise<Page<Awaited<ReturnType<typeof view>>>> => {
  const e = await getEmail(deps, teamId, emailId);
  const positions = e.attachments.map((_, n) => ({ id: attachmentId(e.id, n), n }));
  const { items, hasMore } = pageOf(positions, page);
  return { items: await Promise.all(items.map(({ n }) => view(deps, e, n))), hasMore };
};

/** One attachment of a sent email (404 when the email is another team's or has none by that id). */
export const getSentAttachment = async (deps: Deps, teamId: string, emailId: string, id: string) => {
  const e = await getEmail(deps, teamId, emailId);
  const n = e.attachments.findIndex((_, i) => attachmentId(e.id, i) === id);
  if (n < 0) throw notFound('Attachment');
  return { object: 'attachment' as const, ...(await view(deps, e, n)) };
};

/**
 * What a sent attachment's download link serves: its file name, size and a reader of its bytes
 * (undefined when gone).
 */
export const sentAttachmentFile = async (
  deps: Deps,
  teamId: string,
  emailId: string,
  id: string,
): Promise<{ filename: string; size: number; content: () => Promise<Buffer> } | undefined> => {
  const e = await getEmail(deps, teamId, emailId).catch(() => undefined);
  if (!e) return undefined;
  const n = e.attachments.findIndex((_, i) => attachmentId(e.id, i) === id);
  if (n < 0) return undefined;
  const a = e.attachments[n]!;
  return {
    filename: a.filename,
    size: a.size,
    content: async () => {
      const part = (await attachmentParts(deps, e))[n];
      if (!part) throw new Error(`email ${e.id}: attachment ${n} is missing`);
      return part.content;
    },
  };
};
