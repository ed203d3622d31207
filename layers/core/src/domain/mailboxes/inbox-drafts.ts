import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, transact } from '../../table/ops.ts';
import { queryPage } from '../../table/query-page.ts';
import { ApiError } from '../../errors/api-error.ts';
import type { ErrorName } from '../../errors/catalog.ts';
import type { Caller } from '../caller.ts';
import type { Pagination } from '../../schemas/common.ts';
import type { Page } from '../paging.ts';
import type { Mailbox } from './mailbox.ts';
import type { MailboxCaller } from './mailbox-keys.ts';
import type { MailboxActor } from './activity.ts';
import { isMailboxAgentError, type MailboxAgentErrorName } from './agent-error.ts';
import { draftFromItem, findDraft, saveDraft, type MailboxDraft } from './drafts.ts';
import { draftCommon, eventDraft } from './inbox-draft-view.ts';
import { eventItem, publishEvents } from '../events/record-event.ts';
import { sendDraft } from './send-draft.ts';
import { changeStorage } from './licenses.ts';

/**
 * The SDK's `inboxes.drafts` over the mailbox drafts: an SDK draft and an agent-API draft are the
 * same object, saved by the same use case (revisions, limits, attachments, storage, license) and
 * sent by the same send (license, allowance, `duplicate`). An API key of the team acts as a
 * mailbox caller with every permission (read, draft, send): its sends need no approval.
 */

/** The mailbox caller a full-access API key stands for in one of its team's mailboxes. */
export const apiKeyMailboxCaller = (caller: Caller, mailbox: Mailbox): MailboxCaller => ({
  key: {
    id: caller.keyId,
    teamId: mailbox.teamId,
    mailboxId: mailbox.id,
    name: `API key ${caller.keyId}`,
    permissions: ['read', 'draft', 'send'],
    expiresAt: null,
    revoked: false,
    createdBy: `api_key:${caller.keyId}`,
    createdAt: mailbox.createdAt,
  },
  mailbox,
  can: () => true,
});

/** Who acts through an API key, as the mailbox activity records it. */
export const apiKeyActor = (caller: Caller): MailboxActor => ({
  actor: `api_key:${caller.keyId}`,
  actorName: `API key ${caller.keyId}`,
  via: 'api',
});

/** The agent API's refusals as the email API's catalog names them (the agent's name leads the message). */
const API_NAME: Readonly<Record<MailboxAgentErrorName, ErrorName>> = {
  invalid_request: 'validation_error',
  missing_mailbox_key: 'missing_api_key',
  invalid_mailbox_key: 'invalid_api_key',
  forbidden: 'forbidden',
  not_found: 'not_found',
  stale_revision: 'conflict',
  license_required: 'conflict',
  storage_exhausted: 'conflict',
  allowance_exhausted: 'conflict',
  conflict: 'conflict',
  payload_too_large: 'payload_too_large',
  rate_limit_exceeded: 'rate_limit_exceeded',
  transport_unavailable: 'conflict',
};

/** Runs a mailbox use case for the email API: its refusals become the API's errors, with the agent API's name first in the message (`stale_revision: ...`). */
export const asApi = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work();
  } catch (e) {
    if (!isMailboxAgentError(e)) throw e;
    const name = API_NAME[e.name];
    throw new ApiError(name, name === 'conflict' && e.name !== 'conflict' ? `${e.name}: ${e.message}` : e.message);
  }
};

/** A draft as lists show it (the SDK's `InboxDraftListItem`). */
const inboxDraftRow = (d: MailboxDraft) => ({
  ...draftCommon(d),
  snippet: d.text ? d.text.slice(0, 200) : null,
  updated_at: d.updatedAt,
});

/** A page of an inbox's drafts not sent yet, newest first. */
export const listInboxDrafts = async (
  deps: Deps,
  m: Mailbox,
  page: Pagination,
): Promise<Page<ReturnType<typeof inboxDraftRow>>> => {
  const { items, hasMore } = await queryPage(
    deps,
    {
      pk: keys.mailbox.threadPartition(m.teamId, m.id),
      prefix: keys.mailbox.draftPrefix,
      filter: { attr: 'status', ne: 'sent' },
    },
    page,
  );
  return { items: items.map(draftFromItem).map(inboxDraftRow), hasMore };
};

/** A draft of the inbox (404 for another inbox's or team's). */
export const getInboxDraft = async (deps: Deps, m: Mailbox, draftId: string): Promise<MailboxDraft> => {
  const d = await findDraft(deps, m, draftId);
  if (!d) throw new ApiError('not_found', `No draft ${draftId} in ${m.address}.`);
  return d;
};

/** What an SDK draft is written from. */
export interface InboxDraftInput {
  readonly to?: readonly string[] | undefined;
  readonly subject?: string | undefined;
  readonly text?: string | undefined;
  /** New files; undefined keeps the draft's own (an edit), [] removes them. */
  readonly attachments?: readonly { filename: string; base64: string }[] | undefined;
  /** The revision the edit was made from; the latest when left out. */
  readonly revision?: number | undefined;
}

/**
 * Creates a draft (a reply when `replyToEmailId` names an email of `threadId`: it joins that
 * thread and goes out with In-Reply-To and References). Counts one more draft of the inbox.
 */
export const createInboxDraft = async (
  deps: Deps,
  caller: Caller,
  m: Mailbox,
  input: InboxDraftInput & { threadId?: string | undefined; replyToEmailId?: string | undefined },
): Promise<MailboxDraft> => {
  if (input.replyToEmailId) {
    const source = await getItem(deps, keys.message.item(m.teamId, input.replyToEmailId));
    if (!source || source.mailbox_id !== m.id || source.thread_id !== input.threadId)
      throw new ApiError('not_found', `No email ${input.replyToEmailId} in thread ${input.threadId} of ${m.address}.`);
  }
  const saved = await asApi(() =>
    saveDraft(deps, apiKeyMailboxCaller(caller, m), apiKeyActor(caller), {
      expectedRevision: 0,
      to: [...(input.to ?? [])],
      subject: input.subject ?? '',
      text: input.text ?? '',
      retainedAttachments: [],
      uploads: [...(input.attachments ?? [])],
      ...(input.replyToEmailId ? { sourceItemId: input.replyToEmailId } : {}),
    }),
  );
  return saved.draft;
};

/** Edits a draft: a new revision from `revision` (the latest when left out; a stale one is 409). */
export const updateInboxDraft = async (
  deps: Deps,
  caller: Caller,
  m: Mailbox,
  draftId: string,
  input: InboxDraftInput,
): Promise<MailboxDraft> => {
  const d = await getInboxDraft(deps, m, draftId);
  const saved = await asApi(() =>
    saveDraft(deps, apiKeyMailboxCaller(caller, m), apiKeyActor(caller), {
      id: d.id,
      expectedRevision: input.revision ?? d.revision,
      to: [...(input.to ?? d.to)],
      subject: input.subject ?? d.subject,
      text: input.text ?? d.text,
      retainedAttachments: input.attachments === undefined ? d.attachments.map((a) => a.index) : [],
      uploads: [...(input.attachments ?? [])],
    }),
  );
  return saved.draft;
};

/** Deletes a draft: its row and attachment bytes go, its storage is given back; a sent one's attachments stay with its sent copy. */
export const removeInboxDraft = async (deps: Deps, m: Mailbox, draftId: string): Promise<void> => {
  const d = await getInboxDraft(deps, m, draftId);
  if (d.status === 'sending')
    throw new ApiError('conflict', `Draft ${d.id} is being sent right now; read it again in a moment.`);
  const deleted = eventItem(deps, m.teamId, 'inbox.draft.deleted', {
    source: 'api',
    inbox_id: m.id,
    ...(d.threadId ? { thread_id: d.threadId } : {}),
    draft_id: d.id,
    draft: eventDraft(d),
  });
  const written = await transact(deps, [
    { delete: keys.mailbox.draft(m.teamId, m.id, d.id), when: { attr: 'revision', eq: d.revision } },
    { put: deleted.item },
    ...(d.status === 'sent'
      ? []
      : [{ update: keys.mailbox.item(m.teamId, m.id), change: { add: { draft_count: -1 } }, when: { exists: true } }]),
  ]);
  if (!written.ok) throw new ApiError('conflict', `Draft ${d.id} changed meanwhile; read it again and retry.`);
  await publishEvents(deps, [deleted.record]);
  if (d.sentRevision === null) for (const a of d.attachments) await deps.content.delete(a.contentKey);
  await changeStorage(deps, m.teamId, -d.sizeBytes);
};

/** Sends a draft at its latest revision through the mailbox send (the email's id back; a repeat answers the same). */
export const sendInboxDraft = async (deps: Deps, caller: Caller, m: Mailbox, draftId: string, revision?: number) => {
  const d = await getInboxDraft(deps, m, draftId);
  return asApi(() =>
    sendDraft(deps, apiKeyMailboxCaller(caller, m), apiKeyActor(caller), {
      id: d.id,
      expectedRevision: revision ?? d.revision,
    }),
  );
};
