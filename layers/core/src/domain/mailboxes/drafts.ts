import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, transact, updateItem, type Item, type Write } from '../../table/ops.ts';
import { eventItem, publishEvents, type EventRecord } from '../events/record-event.ts';
import { sourceOf } from './inbox-view.ts';
import { eventDraft } from './inbox-draft-view.ts';
import { isApiError } from '../../errors/api-error.ts';
import {
  MAILBOX_MAX_ATTACHMENTS,
  MAILBOX_MAX_ATTACHMENT_BYTES,
  MAILBOX_MAX_MIME_BYTES,
  MAILBOX_MAX_TEXT_BYTES,
} from '../../limits.ts';
import { formatMailbox, parseMailbox } from '../emails/rules/addresses.ts';
import { decodeBase64, typeFor } from '../emails/rules/attachments.ts';
import type * as v from 'valibot';
import type { DRAFT_STATUSES, SaveDraftRequest, SavedDraftResponse } from '../../schemas/mailbox-agent.ts';
import type { Mailbox } from './mailbox.ts';
import type { MailboxCaller } from './mailbox-key.ts';
import { MailboxAgentError, badRequest } from './agent-error.ts';
import { changeStorage, mailboxEntitlement } from './license.ts';
import { recordActivity, type MailboxActor } from './activity.ts';
import { MAILBOX_CONTENT_PREFIX } from '../../content-keys.ts';
import { messageFromItem, parseMime, readRaw, type MailboxMessage } from './message.ts';

/**
 * A draft of a mailbox (spec §2 Mailbox draft): recipients, subject, text and attachments, saved
 * at a revision. Every save names the revision it was made from (`expectedRevision`; 0 for a new
 * draft, which starts at revision 0), so two agents editing one revision cannot both win: the
 * second gets 409 stale_revision. A reply (`sourceItemId`, an inbox message) joins that message's
 * thread and may keep its attachments. An edit makes a new revision, which needs a new send.
 */
type DraftStatus = (typeof DRAFT_STATUSES)[number];

interface DraftAttachment {
  readonly index: number;
  readonly filename: string;
  readonly size: number;
  readonly contentType: string;
  /** Where its bytes are in the content store. */
  readonly contentKey: string;
}

export interface MailboxDraft {
  readonly id: string;
  readonly teamId: string;
  readonly mailboxId: string;
  readonly revision: number;
  readonly to: readonly string[];
  readonly subject: string;
  readonly text: string;
  readonly attachments: readonly DraftAttachment[];
  /** The inbox message it answers, or null. */
  readonly sourceItemId: string | null;
  readonly threadId: string | null;
  readonly inReplyTo: string | null;
  readonly references: readonly string[];
  readonly status: DraftStatus;
  /** The revision an approval was asked for (awaiting_approval or rejected). */
  readonly approvalRevision: number | null;
  readonly approvalRequestedBy: string | null;
  /** The revision that went out (sending or sent) and its email. */
  readonly sentRevision: number | null;
  readonly emailId: string | null;
  /** When a send took the draft (status sending). */
  readonly claimedAt: string | null;
  /** Bytes it counts toward the team's mailbox storage. */
  readonly sizeBytes: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export const draftFromItem = (i: Item): MailboxDraft => ({
  id: i.id,
  teamId: i.team_id,
  mailboxId: i.mailbox_id,
  revision: Number(i.revision),
  to: i.to ?? [],
  subject: i.subject ?? '',
  text: i.text ?? '',
  attachments: (i.attachments ?? []).map((a: Item) => ({
    index: a.index,
    filename: a.filename,
    size: a.size,
    contentType: a.content_type,
    contentKey: a.content_key,
  })),
  sourceItemId: i.source_item_id ?? null,
  threadId: i.thread_id ?? null,
  inReplyTo: i.in_reply_to ?? null,
  references: i.references ?? [],
  status: i.status,
  approvalRevision: i.approval_revision ?? null,
  approvalRequestedBy: i.approval_requested_by ?? null,
  sentRevision: i.sent_revision ?? null,
  emailId: i.email_id ?? null,
  claimedAt: i.claimed_at ?? null,
  sizeBytes: Number(i.size_bytes ?? 0),
  createdAt: i.created_at,
  updatedAt: i.updated_at,
});

/** A draft of a mailbox, or undefined. */
export const findDraft = async (deps: Deps, mailbox: Mailbox, id: string): Promise<MailboxDraft | undefined> => {
  const item = await getItem(deps, keys.mailbox.draft(mailbox.teamId, mailbox.id, id));
  return item ? draftFromItem(item) : undefined;
};

/** A message of this mailbox by id (another mailbox's, or another team's, is undefined). */
export const findMailboxMessage = async (
  deps: Deps,
  mailbox: Mailbox,
  id: string,
): Promise<MailboxMessage | undefined> => {
  const item = await getItem(deps, keys.message.item(mailbox.teamId, id));
  return item && item.mailbox_id === mailbox.id ? messageFromItem(item) : undefined;
};

/** The `From` of a mailbox's mail: its display name and address. */
export const senderOf = (m: Mailbox): string => formatMailbox(m.name, m.address);

/** The whole MIME message a draft makes (what the 1 MiB limit of spec §8 is measured on). */
const composeDraft = (
  mailbox: Mailbox,
  d: { to: readonly string[]; subject: string; text: string; inReplyTo: string | null; references: readonly string[] },
  files: readonly { filename: string; contentType: string; content: Buffer }[],
  messageId?: string,
): Promise<Buffer> =>
  new MailComposer({
    from: senderOf(mailbox),
    to: [...d.to],
    subject: d.subject,
    text: d.text,
    ...(messageId ? { messageId } : {}),
    ...(d.inReplyTo ? { inReplyTo: `<${d.inReplyTo}>`, references: d.references.map((r) => `<${r}>`).join(' ') } : {}),
    attachments: files.map((f) => ({ filename: f.filename, contentType: f.contentType, content: f.content })),
  })
    .compile()
    .build();

/** Reads a draft's attachment bytes back from the content store. */
export const draftFiles = async (deps: Deps, d: MailboxDraft) =>
  Promise.all(
    d.attachments.map(async (a) => {
      const content = await deps.content.get(a.contentKey);
      if (!content)
        throw new Error(`draft ${d.id}: attachment ${a.index} is missing from the content store (${a.contentKey})`);
      return { filename: a.filename, contentType: a.contentType, content };
    }),
  );

/** The file bytes of an upload: the send rules' base64 decoding, refused with the agent API's 400. */
const uploadBytes = (value: string, at: number): Buffer => {
  try {
    return decodeBase64(value, `uploads.${at}.base64`);
  } catch (e) {
    throw isApiError(e) ? badRequest(e.message) : e;
  }
};

const checkRecipients = (to: readonly string[]): string[] => {
  const seen = new Set<string>();
  const out: string[] = [];
  to.forEach((raw, i) => {
    let parsed;
    try {
      parsed = parseMailbox(raw, `to.${i}`);
    } catch (e) {
      throw badRequest(isApiError(e) ? e.message : `\`to.${i}\` is not an email address.`);
    }
    const bare = parsed.address.toLowerCase();
    if (!seen.has(bare)) {
      seen.add(bare);
      out.push(parsed.formatted);
    }
  });
  return out;
};

/** The address of a recipient as a draft keeps it (`Name <address>` or the address alone). */
export const recipientAddress = (formatted: string): string => parseMailbox(formatted, 'to').address;

/** The distinct recipient addresses of a draft (each one unit of the outbound allowance). */
export const distinctRecipients = (to: readonly string[]): number =>
  new Set(to.map((r) => recipientAddress(r).toLowerCase())).size;

export interface SavedDraft {
  readonly id: string;
  readonly revision: number;
  readonly draft: MailboxDraft;
}

/** What a save answers an agent (the API's body and the MCP tools' result): the draft's id, revision, status, recipients, subject and attachments' metadata. */
export const savedDraftView = (saved: SavedDraft): v.InferOutput<typeof SavedDraftResponse> => ({
  id: saved.id,
  revision: saved.revision,
  status: saved.draft.status,
  to: saved.draft.to,
  subject: saved.draft.subject,
  attachments: saved.draft.attachments.map((a) => ({
    index: a.index,
    filename: a.filename,
    contentType: a.contentType,
    size: a.size,
  })),
});

/**
 * POST /api/mailbox-agent/drafts: saves a new draft (no `id`, `expectedRevision` 0) or a new
 * revision of one (`id`, `sourceItemId` equal to it, `expectedRevision` its latest revision).
 * Needs the draft permission and, in cloud mode, an active license with a seat for the mailbox
 * and room in its storage. 400 for a bad field, 404 for a source or draft not in this mailbox,
 * 409 for a stale revision, the license or storage, 413 past the attachment or message size.
 */
export const saveDraft = async (
  deps: Deps,
  caller: MailboxCaller,
  who: MailboxActor,
  input: SaveDraftRequest,
): Promise<SavedDraft> => {
  const { mailbox } = caller;
  if (!caller.can('draft'))
    throw new MailboxAgentError('forbidden', 'This mailbox key may not write drafts (it lacks the draft permission).');
  const license = await mailboxEntitlement(deps, mailbox);
  const to = checkRecipients(input.to);
  if (Buffer.byteLength(input.text) > MAILBOX_MAX_TEXT_BYTES)
    throw new MailboxAgentError(
      'payload_too_large',
      `\`text\` is ${Buffer.byteLength(input.text)} bytes; a draft's text is at most ${MAILBOX_MAX_TEXT_BYTES} bytes.`,
    );
  if (/[\r\n]/.test(input.subject)) throw badRequest('`subject` must not contain line breaks.');

  // Where it comes from: the draft being edited, or the inbox message it answers.
  let previous: MailboxDraft | undefined;
  let source: MailboxMessage | undefined;
  if (input.id !== undefined) {
    if (input.sourceItemId != null && input.sourceItemId !== input.id)
      throw badRequest('To edit a draft, `sourceItemId` must equal its `id` (or be left out).');
    previous = await findDraft(deps, mailbox, input.id);
    if (!previous) throw new MailboxAgentError('not_found', `No draft ${input.id} in ${mailbox.address}.`);
    if (previous.revision !== input.expectedRevision) throw staleRevision(previous, input.expectedRevision);
    if (previous.status === 'sending')
      throw new MailboxAgentError(
        'conflict',
        `Draft ${previous.id} is being sent right now; read it again in a moment.`,
      );
  } else {
    if (input.expectedRevision !== 0)
      throw badRequest('`expectedRevision` must be 0 for a new draft (give `id` to edit an existing one).');
    if (input.sourceItemId != null) {
      source = await findMailboxMessage(deps, mailbox, input.sourceItemId);
      if (!source)
        throw new MailboxAgentError('not_found', `No message ${input.sourceItemId} in ${mailbox.address} to answer.`);
    }
  }

  // Attachments: the kept ones of the source, then the uploads.
  const retained = [...new Set(input.retainedAttachments)];
  if (retained.length !== input.retainedAttachments.length)
    throw badRequest('`retainedAttachments` names an index twice.');
  const sourceCount = previous ? previous.attachments.length : source ? source.attachments.length : 0;
  for (const index of retained) {
    if (index >= sourceCount) {
      throw badRequest(
        `\`retainedAttachments\` names attachment ${index}, but the ${previous ? 'draft' : source ? 'source message' : 'draft (no sourceItemId)'} has ${sourceCount} (indexes 0 to ${sourceCount - 1}).`,
      );
    }
  }
  const total = retained.length + input.uploads.length;
  if (total > MAILBOX_MAX_ATTACHMENTS)
    throw badRequest(`A draft has at most ${MAILBOX_MAX_ATTACHMENTS} attachments; this one would have ${total}.`);
  const uploads = input.uploads.map((u, i) => ({
    filename: u.filename,
    contentType: typeFor(u.filename),
    content: uploadBytes(u.base64, i),
  }));
  const kept: { filename: string; contentType: string; content: Buffer; contentKey?: string }[] = [];
  if (previous && retained.length) {
    const files = await draftFiles(deps, { ...previous, attachments: retained.map((i) => previous!.attachments[i]!) });
    files.forEach((f, n) => {
      kept.push({ ...f, contentKey: previous!.attachments[retained[n]!]!.contentKey });
    });
  } else if (source && retained.length) {
    const parsed = await parseMime(await readRaw(deps, source));
    for (const index of retained) {
      const meta = source.attachments[index]!;
      const part = parsed.attachments[meta.index];
      if (!part) throw new Error(`message ${source.id}: attachment ${meta.index} is missing from its raw message`);
      kept.push({
        filename: meta.filename ?? `attachment-${index + 1}`,
        contentType: meta.contentType,
        content: part.content,
      });
    }
  }
  const files: { filename: string; contentType: string; content: Buffer; contentKey?: string }[] = [
    ...kept,
    ...uploads,
  ];
  files.forEach((f, i) => {
    if (f.content.length > MAILBOX_MAX_ATTACHMENT_BYTES) {
      throw new MailboxAgentError(
        'payload_too_large',
        `Attachment ${i} (${f.filename}) is ${f.content.length} bytes; each attachment is at most ${MAILBOX_MAX_ATTACHMENT_BYTES} bytes (256 KiB).`,
      );
    }
  });

  const threading = previous
    ? { threadId: previous.threadId, inReplyTo: previous.inReplyTo, references: previous.references }
    : source
      ? {
          threadId: source.threadId,
          inReplyTo: source.messageId,
          references: [...source.references, source.messageId].slice(-20),
        }
      : { threadId: null, inReplyTo: null, references: [] as string[] };
  const mime = await composeDraft(mailbox, { to, subject: input.subject, text: input.text, ...threading }, files);
  if (mime.length > MAILBOX_MAX_MIME_BYTES) {
    throw new MailboxAgentError(
      'payload_too_large',
      `The message this draft makes is ${mime.length} bytes; a mailbox message is at most ${MAILBOX_MAX_MIME_BYTES} bytes (1 MiB) with its attachments encoded.`,
    );
  }

  // Storage first (409 when full), then the new attachment bytes, then the row.
  const id = previous?.id ?? deps.ids.next();
  const revision = previous ? previous.revision + 1 : 0;
  const sizeBytes =
    files.reduce((n, f) => n + f.content.length, 0) + Buffer.byteLength(input.text) + Buffer.byteLength(input.subject);
  const delta = sizeBytes - (previous?.sizeBytes ?? 0);
  await changeStorage(deps, mailbox.teamId, delta, license);
  const attachments = await Promise.all(
    files.map(async (f, index) => {
      const contentKey = f.contentKey ?? `${MAILBOX_CONTENT_PREFIX}${mailbox.teamId}/drafts/${id}/${deps.ids.next()}`;
      if (!f.contentKey) await deps.content.put(contentKey, f.content);
      return {
        index,
        filename: f.filename,
        size: f.content.length,
        content_type: f.contentType,
        content_key: contentKey,
      };
    }),
  );
  const now = new Date(deps.clock.now()).toISOString();
  const fields = {
    revision,
    to,
    subject: input.subject,
    text: input.text,
    attachments,
    size_bytes: sizeBytes,
    status: 'draft',
    updated_at: now,
  };
  // The row as stored: the update's answer, or the new item.
  let stored: Item | undefined;
  const draftKey = keys.mailbox.draft(mailbox.teamId, mailbox.id, id);
  // The SDK inbox's event of the change, written with it.
  const event = (type: 'inbox.draft.created' | 'inbox.draft.updated', d: MailboxDraft) =>
    eventItem(deps, mailbox.teamId, type, {
      source: sourceOf(who),
      inbox_id: mailbox.id,
      ...(d.threadId ? { thread_id: d.threadId } : {}),
      draft_id: d.id,
      draft: eventDraft(d),
    });
  let published: EventRecord | undefined;
  if (previous) {
    const updated = event('inbox.draft.updated', {
      ...previous,
      ...draftFromItem({ ...fields, id, team_id: mailbox.teamId, mailbox_id: mailbox.id }),
      createdAt: previous.createdAt,
      threadId: previous.threadId,
      sourceItemId: previous.sourceItemId,
    });
    // An edit after a send makes a draft again: the inbox counts it (drafts: kept on write).
    const written = await transact(deps, [
      {
        update: draftKey,
        change: { set: fields },
        when: {
          and: [
            { attr: 'revision', eq: previous.revision },
            { attr: 'status', ne: 'sending' },
          ],
        },
      },
      { put: updated.item },
      ...(previous.status === 'sent' ? [draftsCounted(mailbox, 1)] : []),
    ]);
    stored = written.ok ? await getItem(deps, draftKey) : undefined;
    published = updated.record;
  } else {
    const item = {
      ...keys.mailbox.draft(mailbox.teamId, mailbox.id, id),
      type: 'mailbox_draft',
      id,
      team_id: mailbox.teamId,
      mailbox_id: mailbox.id,
      ...fields,
      source_item_id: source?.id ?? null,
      thread_id: threading.threadId,
      in_reply_to: threading.inReplyTo,
      references: threading.references,
      created_at: now,
    };
    const created = event('inbox.draft.created', draftFromItem(item));
    stored = (
      await transact(deps, [{ put: item, when: { exists: false } }, draftsCounted(mailbox, 1), { put: created.item }])
    ).ok
      ? item
      : undefined;
    published = created.record;
  }
  if (!stored) {
    await changeStorage(deps, mailbox.teamId, -delta);
    const now2 = await findDraft(deps, mailbox, id);
    throw now2
      ? staleRevision(now2, input.expectedRevision)
      : new MailboxAgentError('not_found', `Draft ${id} was deleted meanwhile.`);
  }
  // A new draft, or one made a draft again by an edit after its send, counts on its thread.
  if (!previous || previous.status === 'sent') await threadDraftsCounted(deps, mailbox, threading.threadId, 1);
  await publishEvents(deps, published ? [published] : []);
  await recordActivity(
    deps,
    mailbox.teamId,
    mailbox.id,
    who,
    'draft',
    id,
    `revision ${revision}, ${to.length} recipient(s), ${attachments.length} attachment(s)`,
  );
  return { id, revision, draft: draftFromItem(stored) };
};

/**
 * Moves the count of a thread's reply drafts not sent (the SDK thread's `has_draft`), beside the
 * inbox's count. A thread deleted meanwhile is left alone (the condition), and the count is a
 * hint only: nothing is refused on it.
 */
export const threadDraftsCounted = async (
  deps: Deps,
  mailbox: Pick<Mailbox, 'teamId' | 'id'>,
  threadId: string | null,
  by: 1 | -1,
): Promise<void> => {
  if (threadId)
    await updateItem(
      deps,
      keys.mailbox.thread(mailbox.teamId, mailbox.id, threadId),
      { add: { draft_count: by } },
      { exists: true },
    );
};

/** The write that moves a mailbox's count of drafts not sent (the SDK inbox's `drafts`). */
const draftsCounted = (mailbox: Mailbox, by: 1 | -1): Write => ({
  update: keys.mailbox.item(mailbox.teamId, mailbox.id),
  change: { add: { draft_count: by } },
  when: { exists: true },
});

/** 409 for a save or send made from a revision that is no longer the latest. */
export const staleRevision = (d: MailboxDraft, expected: number) =>
  new MailboxAgentError(
    'stale_revision',
    `Draft ${d.id} is at revision ${d.revision}, not ${expected}: someone saved it meanwhile. Read it again (GET /api/mailbox-agent/items?id=${d.id}) and save from its latest revision.`,
  );
