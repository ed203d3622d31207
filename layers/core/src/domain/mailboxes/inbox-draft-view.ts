import type { MailboxDraft } from './drafts.ts';

/** An attachment of an SDK draft as our draft keeps it. */
const draftAttachment = (d: MailboxDraft, a: MailboxDraft['attachments'][number]) => ({
  id: `${d.id}-${a.index}`,
  filename: a.filename,
  content_type: a.contentType,
  size: a.size,
});

/** The fields an SDK draft, its list row and its events share. */
export const draftCommon = (d: MailboxDraft) => ({
  id: d.id,
  type: d.sourceItemId ? ('reply' as const) : ('standalone' as const),
  to: d.to.length ? [...d.to] : null,
  cc: [] as string[],
  bcc: [] as string[],
  subject: d.subject || null,
  thread_id: d.threadId,
  reply_to_email_id: d.sourceItemId,
  attachments: d.attachments.map((a) => draftAttachment(d, a)),
  revision: d.revision,
  status: d.status,
});

/** One draft (the SDK's `InboxDraft`, plus its `revision` and `status`). */
export const inboxDraftView = (d: MailboxDraft) => ({
  object: 'inbox_draft' as const,
  ...draftCommon(d),
  html: null,
  text: d.text || null,
  email_id: d.emailId,
  created_at: d.createdAt,
  updated_at: d.updatedAt,
});

/** A draft as inbox events carry it (the SDK's `InboxEventDraft`: no bodies). */
export const eventDraft = (d: MailboxDraft) => ({
  object: 'inbox_draft' as const,
  ...draftCommon(d),
  email_id: d.emailId,
  created_at: d.createdAt,
  updated_at: d.updatedAt,
});
