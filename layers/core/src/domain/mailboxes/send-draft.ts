import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { getItem, putItem, transact, updateItem, type Write } from '../../table/ops.ts';
import { isApiError } from '../../errors/api-error.ts';
import { MAILBOX_APPROVAL_NOTICE_SECONDS } from '../../limits.ts';
import type * as v from 'valibot';
import type { SendDraftRequest, SendDraftResponse } from '../../schemas/mailbox-agent.ts';
import { validate } from '../../schemas/validate.ts';
import { SendEmailRequest } from '../../schemas/emails.ts';
import { getTeam } from '../teams/team.ts';
import { getUser } from '../people/user.ts';
import { sendEmail } from '../emails/send-emails.ts';
import { sendSystemEmail } from '../people/system-mail.ts';
import type { Mailbox } from './mailbox.ts';
import type { MailboxCaller } from './mailbox-key.ts';
import { MailboxAgentError } from './agent-error.ts';
import { mailboxEntitlement, mailboxTransportEnabled, refundAllowance, reserveAllowance } from './license.ts';
import { activityItem, recordActivity, type MailboxActor } from './activity.ts';
import {
  distinctRecipients,
  draftFiles,
  draftFromItem,
  findDraft,
  recipientAddress,
  senderOf,
  staleRevision,
  threadDraftsCounted,
  type MailboxDraft,
} from './drafts.ts';
import { threadDigest } from './thread-digest.ts';
import { eventItem, publishEvents } from '../events/record-event.ts';
import { sourceOf } from './inbox-view.ts';
import { eventDraft } from './inbox-draft-view.ts';
import { messageIdHash, threadEntry } from './message.ts';
import { sentCopyMessageId } from './sent-message-id.ts';
import { spokenDuration } from '../people/system-messages.ts';

/** What a send request came to (spec §4: 202 admitted or awaiting approval; 200 duplicate for a repeat; `emailId` is the email an admitted message became). */
export type SendOutcome = v.InferOutput<typeof SendDraftResponse>;

const outcome = (
  d: MailboxDraft,
  status: SendOutcome['status'],
  duplicate: boolean,
  emailId: string | null = null,
): SendOutcome => ({ id: d.id, revision: d.revision, status, duplicate, emailId });

/** A claim older than this with no email is a send that died mid-way: it may be taken again. */
const STALE_CLAIM_MS = 60_000;

/**
 * POST /api/mailbox-agent/send: sends the draft at `expectedRevision`. With the send permission
 * the message is admitted to the outbox (202) once the license, domain, allowance and transport
 * allow; without it the draft awaits its owner's approval (202 awaiting_approval; the owner is
 * emailed at most once per 10 minutes per mailbox). A repeat for the same revision answers 200
 * with `duplicate: true`. 404 for a draft not in this mailbox, 409 for a stale revision.
 */
export const sendDraft = async (
  deps: Deps,
  caller: MailboxCaller,
  who: MailboxActor,
  input: SendDraftRequest,
): Promise<SendOutcome> => {
  const { mailbox } = caller;
  if (!caller.can('draft') && !caller.can('send'))
    throw new MailboxAgentError('forbidden', 'This mailbox key may not send drafts.');
  const d = await findDraft(deps, mailbox, input.id);
  if (!d) throw new MailboxAgentError('not_found', `No draft ${input.id} in ${mailbox.address}.`);
  if (d.revision !== input.expectedRevision) throw staleRevision(d, input.expectedRevision);
  if (d.sentRevision === d.revision && !staleClaim(deps, d)) return outcome(d, 'admitted', true, d.emailId);
  if (!caller.can('send')) return requestApproval(deps, mailbox, d, who);
  return admitDraft(deps, mailbox, d, who);
};

/** A send that took the draft and died before its email was accepted. */
const staleClaim = (deps: Deps, d: MailboxDraft): boolean =>
  d.status === 'sending' &&
  d.emailId === null &&
  deps.clock.now() - Date.parse(d.claimedAt ?? d.updatedAt) > STALE_CLAIM_MS;

/** Puts the draft's revision before its owner; the owner hears of it at most once per 10 minutes per mailbox. */
const requestApproval = async (
  deps: Deps,
  mailbox: Mailbox,
  d: MailboxDraft,
  who: MailboxActor,
): Promise<SendOutcome> => {
  if (d.approvalRevision === d.revision && d.status === 'awaiting_approval')
    return outcome(d, 'awaiting_approval', true);
  if (d.approvalRevision === d.revision && d.status === 'rejected') {
    throw new MailboxAgentError(
      'conflict',
      `The owner of ${mailbox.address} rejected revision ${d.revision} of draft ${d.id}; edit it (a new revision) before asking again.`,
    );
  }
  const now = deps.clock.now();
  const changed = await updateItem(
    deps,
    keys.mailbox.draft(mailbox.teamId, mailbox.id, d.id),
    {
      set: {
        status: 'awaiting_approval',
        approval_revision: d.revision,
        approval_requested_by: who.actorName || who.actor,
        approval_requested_at: new Date(now).toISOString(),
      },
    },
    {
      and: [
        { attr: 'revision', eq: d.revision },
        { attr: 'status', in: ['draft', 'rejected'] },
      ],
    },
  );
  if (!changed) {
    const again = (await findDraft(deps, mailbox, d.id))!;
    if (again.revision !== d.revision) throw staleRevision(again, d.revision);
    if (again.status === 'awaiting_approval' && again.approvalRevision === d.revision)
      return outcome(again, 'awaiting_approval', true);
    if (again.sentRevision === d.revision) return outcome(again, 'admitted', true, again.emailId);
    throw new MailboxAgentError('conflict', `Draft ${d.id} changed meanwhile; read it again.`);
  }
  await recordActivity(
    deps,
    mailbox.teamId,
    mailbox.id,
    who,
    'approval_requested',
    d.id,
    `revision ${d.revision} to ${d.to.join(', ')}`,
  );
  await noticeOwner(deps, mailbox, d);
  return outcome(draftFromItem(changed), 'awaiting_approval', false);
};

/** Emails the mailbox's owner that drafts await approval, unless they were told in the last 10 minutes. */
const noticeOwner = async (deps: Deps, mailbox: Mailbox, d: MailboxDraft): Promise<void> => {
  const now = deps.clock.now();
  const claimed = await putItem(
    deps,
    {
      ...keys.mailbox.approvalNotice(mailbox.teamId, mailbox.id),
      type: 'mailbox_approval_notice',
      last_at: now,
      draft_id: d.id,
      ttl: Math.floor(now / 1000) + 2 * MAILBOX_APPROVAL_NOTICE_SECONDS,
    },
    { or: [{ exists: false }, { attr: 'last_at', lt: now - MAILBOX_APPROVAL_NOTICE_SECONDS * 1000 }] },
  );
  if (!claimed) return;
  const owner = await getUser(deps, mailbox.ownerUserId);
  if (!owner) return;
  const panel = `${deps.config.DASHBOARD_URL.replace(/\/$/, '')}/t/${mailbox.teamId}/mailboxes/${mailbox.id}`;
  try {
    await sendSystemEmail(deps, {
      to: owner.email,
      subject: `A draft in ${mailbox.address} awaits your approval`,
      text: `An agent asked to send a draft from ${mailbox.address}:\n\n  To: ${d.to.join(', ')}\n  Subject: ${d.subject}\n\nApprove or reject it in the mailbox panel:\n${panel}\n\nYou hear of waiting drafts at most once every ${spokenDuration(MAILBOX_APPROVAL_NOTICE_SECONDS)} per mailbox; the panel lists them all.\n`,
    });
  } catch (error) {
    // The request stands and the panel lists the draft; the notice is best effort.
    deps.logger.warn('mailbox approval notice not sent', { mailbox_id: mailbox.id, error: String(error) });
  }
};

/**
 * Admits the draft's current revision to the outbox: transport on (503 otherwise, the draft is
 * kept), an active license with a seat, the recipients reserved from the allowance (409
 * otherwise); then the normal send pipeline from the mailbox's address (whose rules refuse an
 * unverified domain: 409 with their message, the draft kept and the units given back), with
 * In-Reply-To and References on a reply; the message is kept in the sent folder and its thread.
 */
export const admitDraft = async (
  deps: Deps,
  mailbox: Mailbox,
  d: MailboxDraft,
  who: MailboxActor,
  approvedBy?: string,
): Promise<SendOutcome> => {
  if (!(await mailboxTransportEnabled(deps, mailbox.teamId))) {
    throw new MailboxAgentError(
      'transport_unavailable',
      'Outbound mail from mailboxes is turned off by the operator right now; the draft is kept. Send it again later.',
    );
  }
  const license = await mailboxEntitlement(deps, mailbox);
  const team = await getTeam(deps, mailbox.teamId);
  if (!team) throw new MailboxAgentError('not_found', 'The team of this mailbox no longer exists.');
  const recipients = distinctRecipients(d.to);
  await reserveAllowance(deps, mailbox, recipients, license);

  const draftKey = keys.mailbox.draft(mailbox.teamId, mailbox.id, d.id);
  const now = deps.clock.now();
  const claimed = await updateItem(
    deps,
    draftKey,
    {
      set: {
        status: 'sending',
        sent_revision: d.revision,
        claimed_at: new Date(now).toISOString(),
        ...(approvedBy ? { approved_by: approvedBy } : {}),
      },
    },
    {
      and: [
        { attr: 'revision', eq: d.revision },
        {
          or: [
            { attr: 'sent_revision', absent: true },
            { attr: 'sent_revision', ne: d.revision },
            {
              and: [
                { attr: 'status', eq: 'sending' },
                { attr: 'claimed_at', lt: new Date(now - STALE_CLAIM_MS).toISOString() },
              ],
            },
          ],
        },
        ...(approvedBy ? [{ attr: 'status', eq: 'awaiting_approval' } as const] : []),
      ],
    },
  );
  if (!claimed) {
    await refundAllowance(deps, mailbox, recipients, license);
    const again = await findDraft(deps, mailbox, d.id);
    if (!again) throw new MailboxAgentError('not_found', `Draft ${d.id} was deleted meanwhile.`);
    if (again.revision !== d.revision) throw staleRevision(again, d.revision);
    if (again.sentRevision === d.revision) return outcome(again, 'admitted', true, again.emailId);
    throw new MailboxAgentError('conflict', `Draft ${d.id} changed meanwhile; read it again.`);
  }

  const domainName = mailbox.address.slice(mailbox.address.indexOf('@') + 1);
  const sentId = deps.ids.next();
  const messageId = `${sentId}@${domainName}`;
  const threadId = d.threadId ?? deps.ids.next();
  let emailId: string;
  try {
    const files = await draftFiles(deps, d);
    const request = validate(SendEmailRequest, {
      from: senderOf(mailbox),
      to: [...d.to],
      subject: d.subject,
      text: d.text,
      ...(d.inReplyTo
        ? {
            headers: {
              'In-Reply-To': `<${d.inReplyTo}>`,
              References: [...d.references].map((r) => `<${r}>`).join(' '),
            },
          }
        : {}),
      ...(files.length
        ? {
            attachments: files.map((f) => ({
              filename: f.filename,
              content: f.content.toString('base64'),
              content_type: f.contentType,
            })),
          }
        : {}),
    });
    ({ id: emailId } = await sendEmail(
      deps,
      { team, keyId: who.actor, scope: 'sending_access', domainId: mailbox.domainId },
      request,
      { messageId: `<${messageId}>`, mailboxSent: { mailbox_id: mailbox.id, message_id: sentId, thread_id: threadId } },
    ));
  } catch (error) {
    // Nothing went out: the draft is as it was and the units come back.
    await updateItem(
      deps,
      draftKey,
      { set: { status: d.status === 'sending' ? 'draft' : d.status }, remove: ['sent_revision', 'claimed_at'] },
      { attr: 'sent_revision', eq: d.revision },
    );
    await refundAllowance(deps, mailbox, recipients, license);
    if (isApiError(error))
      throw new MailboxAgentError('conflict', `The send was refused: ${error.message} The draft is kept.`);
    throw error;
  }

  // The sent copy: in the sent folder and the draft's thread (a reply to it threads here).
  const at = new Date(deps.clock.now()).toISOString();
  const threadKey = keys.mailbox.thread(mailbox.teamId, mailbox.id, threadId);
  const previous = d.threadId ? await getItem(deps, threadKey) : undefined;
  // The thread shows its latest message's people, and its search digest gains the sent words.
  const sentTo = d.to.map(recipientAddress);
  const shown = {
    last_from: senderOf(mailbox),
    last_to: sentTo,
    last_cc: [],
    last_bcc: [],
    ...threadDigest(previous, { subject: d.subject, text: d.text, from: senderOf(mailbox), recipients: sentTo }),
  };
  const threadWrite: Write = previous
    ? { update: threadKey, change: { add: { message_count: 1 }, set: { last_message_at: at, ...shown } } }
    : {
        put: {
          ...threadKey,
          ...keys.mailbox.threadListing(mailbox.teamId, mailbox.id, 'sent', at, threadId),
          type: 'thread',
          id: threadId,
          team_id: mailbox.teamId,
          mailbox_id: mailbox.id,
          subject: d.subject,
          folder: 'sent',
          labels: [],
          read: true,
          message_count: 1,
          has_attachment: d.attachments.length > 0,
          ...shown,
          created_at: at,
          last_message_at: at,
        },
      };
  const sentEvent = eventItem(deps, mailbox.teamId, 'inbox.email.sent', {
    source: sourceOf(who),
    inbox_id: mailbox.id,
    thread_id: threadId,
    email_id: sentId,
    email: {
      id: sentId,
      direction: 'outbound',
      from: senderOf(mailbox),
      to: sentTo,
      cc: [],
      bcc: [],
      reply_to: [],
      subject: d.subject || null,
      message_id: messageId,
      attachments: d.attachments.map((a) => ({ id: `${sentId}-${a.index}`, filename: a.filename, size: a.size })),
      read: true,
      received_at: at,
    },
  });
  const draftSent = eventItem(deps, mailbox.teamId, 'inbox.draft.sent', {
    ...sentEvent.record.data,
    draft_id: d.id,
    draft: eventDraft({ ...d, status: 'sent', emailId, threadId }),
  });
  await transact(deps, [
    { put: sentEvent.item },
    { put: draftSent.item },
    {
      put: {
        ...keys.message.item(mailbox.teamId, sentId),
        ...keys.message.folderListing(mailbox.teamId, mailbox.id, 'sent', sentId),
        ...keys.message.threadListing(mailbox.teamId, threadId, sentId),
        type: 'message',
        id: sentId,
        team_id: mailbox.teamId,
        mailbox_id: mailbox.id,
        thread_id: threadId,
        direction: 'outbound',
        folder: 'sent',
        from: senderOf(mailbox),
        to: sentTo,
        cc: [],
        bcc: [],
        reply_to: [],
        received_for: [],
        subject: d.subject,
        message_id: messageId,
        in_reply_to: d.inReplyTo,
        references: d.references,
        html: null,
        text: d.text,
        bodies_in_raw: false,
        headers: {},
        attachments: d.attachments.map((a) => ({
          id: `${sentId}-${a.index}`,
          index: a.index,
          filename: a.filename,
          size: a.size,
          content_type: a.contentType,
          content_id: null,
          content_disposition: 'attachment',
          content_key: a.contentKey,
        })),
        verdicts: {},
        size: 0,
        raw_key: null,
        email_id: emailId,
        draft_id: d.id,
        draft_revision: d.revision,
        read: true,
        labels: [],
        created_at: at,
      },
    },
    {
      put: {
        ...keys.mailbox.messageId(mailbox.teamId, mailbox.id, messageIdHash(messageId)),
        type: 'message_id',
        message_id: sentId,
        thread_id: threadId,
      },
    },
    { put: threadEntry(mailbox.teamId, mailbox.id, threadId, sentId) },
    threadWrite,
    {
      update: draftKey,
      change: { set: { status: 'sent', email_id: emailId, sent_message_id: sentId, sent_at: at, thread_id: threadId } },
      when: { attr: 'sent_revision', eq: d.revision },
    },
    {
      put: activityItem(
        deps,
        mailbox.teamId,
        mailbox.id,
        who,
        'send',
        d.id,
        `revision ${d.revision} to ${d.to.join(', ')} as email ${emailId}${approvedBy ? ' (approved)' : ''}`,
      ),
    },
  ]);
  await publishEvents(deps, [sentEvent.record, draftSent.record]);
  // The provider may have sent the email, under the Message-ID it writes, before the copy was written.
  await sentCopyMessageId(deps, mailbox.teamId, emailId, messageId);
  // One draft fewer to count (apart from the sent copy's write: a mailbox deleted meanwhile must not lose it).
  await updateItem(deps, keys.mailbox.item(mailbox.teamId, mailbox.id), { add: { draft_count: -1 } }, { exists: true });
  await threadDraftsCounted(deps, mailbox, d.threadId, -1);
  return outcome(d, 'admitted', false, emailId);
};
