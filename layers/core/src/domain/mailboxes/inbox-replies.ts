import type { Deps } from '../../runtime/deps.ts';
import { ApiError, validationError } from '../../errors/api-error.ts';
import { MAILBOX_MAX_RECIPIENTS } from '../../limits.ts';
import type { Caller } from '../caller.ts';
import { parseMailbox } from '../emails/rules/addresses.ts';
import type { Mailbox } from './mailbox.ts';
import { loadMessage, withBodies, type MailboxMessage } from './message.ts';
import { saveDraft } from './drafts.ts';
import { sendDraft } from './send-draft.ts';
import { apiKeyActor, apiKeyMailboxCaller, asApi } from './inbox-draft.ts';
import type { MailboxCaller, MailboxKey } from './mailbox-key.ts';
import type { MailboxActor } from './activity.ts';

/** A person of the team replying from the dashboard (the mailbox's owner, or one whose role manages mailboxes). */
export interface MailboxPerson {
  readonly userId: string;
  readonly name: string;
}

/** Who acts, as the draft and send use cases take it: an API key (every permission), or a person in the dashboard. */
const acting = (by: Caller | MailboxPerson, m: Mailbox): { caller: MailboxCaller; who: MailboxActor } => {
  if ('keyId' in by) return { caller: apiKeyMailboxCaller(by, m), who: apiKeyActor(by) };
  const key: MailboxKey = {
    id: `user:${by.userId}`,
    teamId: m.teamId,
    mailboxId: m.id,
    name: by.name,
    permissions: ['read', 'draft', 'send'],
    expiresAt: null,
    revoked: false,
    createdBy: `user:${by.userId}`,
    createdAt: m.createdAt,
  };
  return {
    caller: { key, mailbox: m, can: () => true },
    who: { actor: `user:${by.userId}`, actorName: by.name, via: 'dashboard' },
  };
};

/**
 * The SDK's `threads.emails.reply` and `forward`: a draft made from an email of the thread (so it
 * joins the thread and goes out with In-Reply-To and References) and sent at once, through the
 * same draft and send use cases as every mailbox send (limits, license, allowance, storage).
 */

/** The email a reply or forward starts from: one of the thread, in this inbox (404 otherwise). */
const sourceEmail = async (deps: Deps, m: Mailbox, threadId: string, emailId: string): Promise<MailboxMessage> => {
  const msg = await loadMessage(deps, m.teamId, emailId).catch(() => undefined);
  if (!msg || msg.mailboxId !== m.id || msg.threadId !== threadId)
    throw new ApiError('not_found', `No email ${emailId} in thread ${threadId} of ${m.address}.`);
  return msg;
};

const bare = (address: string): string => {
  try {
    return parseMailbox(address, 'address').address.toLowerCase();
  } catch {
    return address.trim().toLowerCase();
  }
};

/** Who a reply goes to: the sender (its Reply-To when given), and with `replyAll` everyone else it was sent to but this inbox. */
const replyRecipients = (m: Mailbox, msg: MailboxMessage, replyAll: boolean): string[] => {
  const first = msg.direction === 'outbound' ? [...msg.to] : msg.replyTo.length ? [...msg.replyTo] : [msg.from];
  const all = replyAll ? [...first, ...msg.to, ...msg.cc] : first;
  const seen = new Set([m.address.toLowerCase()]);
  const out: string[] = [];
  for (const a of all) {
    const key = bare(a);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(a);
    }
  }
  if (out.length === 0) throw validationError(`Email ${msg.id} has nobody to reply to but this inbox.`);
  return out.slice(0, MAILBOX_MAX_RECIPIENTS);
};

const prefixed = (prefix: 'Re' | 'Fwd', subject: string): string =>
  new RegExp(`^${prefix}:`, 'i').test(subject) ? subject : `${prefix}: ${subject}`.trim();

/** Files of a reply or forward, as the draft takes them. */
export interface NewFile {
  readonly filename: string;
  readonly base64: string;
}

const draftAndSend = async (
  deps: Deps,
  by: Caller | MailboxPerson,
  m: Mailbox,
  draft: { to: string[]; subject: string; text: string; sourceItemId: string; retained: number[]; uploads: NewFile[] },
) => {
  const { caller: mailboxCaller, who } = acting(by, m);
  const saved = await asApi(() =>
    saveDraft(deps, mailboxCaller, who, {
      expectedRevision: 0,
      to: draft.to,
      subject: draft.subject,
      text: draft.text,
      retainedAttachments: draft.retained,
      uploads: draft.uploads,
      sourceItemId: draft.sourceItemId,
    }),
  );
  const sent = await asApi(() => sendDraft(deps, mailboxCaller, who, { id: saved.id, expectedRevision: 0 }));
  return { id: sent.emailId!, draft_id: saved.id, thread_id: saved.draft.threadId };
};

/**
 * Replies to an email of the thread: to its sender (everyone with `replyAll`), `Re:` its subject
 * unless given; by an API key (the SDK) or a person (the dashboard's conversation reader).
 */
export const replyToEmail = async (
  deps: Deps,
  caller: Caller | MailboxPerson,
  m: Mailbox,
  threadId: string,
  emailId: string,
  input: { text: string; subject?: string | undefined; replyAll?: boolean | undefined; attachments: NewFile[] },
) => {
  const msg = await sourceEmail(deps, m, threadId, emailId);
  return draftAndSend(deps, caller, m, {
    to: replyRecipients(m, msg, input.replyAll === true),
    subject: input.subject ?? prefixed('Re', msg.subject),
    text: input.text,
    sourceItemId: msg.id,
    retained: [],
    uploads: input.attachments,
  });
};

/** Forwards an email of the thread with its attachments: the note first, then the forwarded message's headers and text. */
export const forwardEmail = async (
  deps: Deps,
  caller: Caller,
  m: Mailbox,
  threadId: string,
  emailId: string,
  input: { to: string[]; text?: string | undefined; subject?: string | undefined; attachments: NewFile[] },
) => {
  const msg = await withBodies(deps, await sourceEmail(deps, m, threadId, emailId));
  const quoted = [
    '---------- Forwarded message ---------',
    `From: ${msg.from}`,
    `Date: ${new Date(msg.createdAt).toUTCString()}`,
    `Subject: ${msg.subject}`,
    `To: ${msg.to.join(', ')}`,
    '',
    msg.text ?? '',
  ].join('\n');
  return draftAndSend(deps, caller, m, {
    to: input.to,
    subject: input.subject ?? prefixed('Fwd', msg.subject),
    text: input.text ? `${input.text}\n\n${quoted}` : quoted,
    sourceItemId: msg.id,
    // A received email's files are read back from its raw message; a sent copy keeps none of its own.
    retained: msg.direction === 'inbound' ? msg.attachments.map((a) => a.index) : [],
    uploads: input.attachments,
  });
};
