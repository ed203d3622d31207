import { ApiError } from '../../errors/api-error.ts';
import type { ErrorName } from '../../errors/catalog.ts';
import type { Caller } from '../caller.ts';
import type { Mailbox } from './mailbox.ts';
import type { MailboxCaller } from './mailbox-key.ts';
import type { MailboxActor } from './activity.ts';
import { isMailboxAgentError, type MailboxAgentErrorName } from './agent-error.ts';
import type { MailboxDraft } from './drafts.ts';
import { draftCommon } from './inbox-draft-view.ts';

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
export const inboxDraftRow = (d: MailboxDraft) => ({
  ...draftCommon(d),
  snippet: d.text ? d.text.slice(0, 200) : null,
  updated_at: d.updatedAt,
});

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
