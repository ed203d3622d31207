import { eventItem, publishEvents } from '../events/record-event.ts';
import { emailEventData, suppressedEventData } from './pipeline/email-event-data.ts';
import { countMetrics } from '../metrics/count-metrics.ts';
import type { Deps } from '../../runtime/deps.ts';
import { emailExpiry } from './retention.ts';
import type { Caller } from '../caller.ts';
import { keys } from '../../table/keys.ts';
import { batchWriteItems } from '../../table/ops.ts';
import { quotaOnlyCounts, reserveQuota } from '../quotas/reserve-quota.ts';
import { calendarOf } from '../usage/get-usage.ts';
import type { PreparedEmail } from './prepare-email.ts';
import { waitingKeys, type EmailItem, type SendJob } from './email.ts';
import { rowAndBody, storeLargeContent } from './email-content.ts';

/** Attachment bytes per chunk item, well under DynamoDB's 400 KB item limit once base64-encoded. */
const CHUNK_BYTES = 280_000;

/** The schedule name of a scheduled email. */
export const scheduleName = (emailId: string): string => `email-${emailId}`;

/** The send-queue message of an email. */
export const sendJob = (e: { team_id: string; id: string }): { body: SendJob } => ({
  body: { teamId: e.team_id, emailId: e.id },
});

const toItems = async (deps: Deps, teamId: string, p: PreparedEmail, status: EmailItem['status']) => {
  const id = p.id ?? deps.ids.next();
  const now = new Date(deps.clock.now()).toISOString();
  // Large bodies and attachments go to the content store first; the row keeps their keys.
  const content = await storeLargeContent(deps, teamId, id, {
    html: p.html,
    text: p.text,
    attachments: Buffer.concat(p.attachments.map((a) => a.content)),
  });
  const all = content.inlineAttachments;
  const chunks: Buffer[] = [];
  for (let i = 0; i < all.length; i += CHUNK_BYTES) chunks.push(all.subarray(i, i + CHUNK_BYTES));
  const email: EmailItem = {
    type: 'email',
    id,
    team_id: teamId,
    from: p.from.formatted,
    to: p.to,
    cc: p.cc,
    bcc: p.bcc,
    reply_to: p.replyTo,
    subject: p.subject,
    html: content.html,
    text: content.text,
    ...(content.refs ? { content_refs: content.refs } : {}),
    headers: p.headers,
    tags: p.tags,
    topic_id: p.topicId,
    attachment_chunks: chunks.length,
    attachments: p.attachments.map((a) => ({
      filename: a.filename,
      content_type: a.contentType,
      size: a.content.length,
    })),
    status,
    created_at: now,
    scheduled_at: p.scheduledAt === undefined ? null : new Date(p.scheduledAt).toISOString(),
    message_id: p.messageId ?? `<${id}@${p.domain.name}>`,
    ...(p.mailboxSent ? { mailbox_sent: p.mailboxSent } : {}),
    provider_message_id: null,
    domain_id: p.domain.id,
    region: p.domain.region,
    // The domain's tracking switches when the email was accepted; both off unless the team turned them on.
    open_tracking: p.domain.openTracking,
    click_tracking: p.domain.clickTracking,
    attempts: 0,
    failure_reason: null,
    updated_at: now,
  };
  const parkedUntil = new Date(calendarOf(deps.clock.now()).nextMidnight).toISOString();
  // Bodies that would take the row past one write unit go in its body item, written beside it.
  const { row, body } = rowAndBody({
    ...keys.email.item(teamId, id),
    ...keys.email.listing(teamId, id),
    ...waitingKeys(email, parkedUntil),
    ...email,
  });
  // Under the email retention, every item of the email expires with it.
  const expiry = emailExpiry(deps, deps.clock.now());
  return {
    email,
    items: [
      ...(body ? [{ ...body, ...expiry }] : []),
      { ...row, ...expiry },
      ...chunks.map((c, n) => ({
        ...keys.email.attachment(teamId, id, n),
        type: 'email_attachment',
        content: c.toString('base64'),
        ...expiry,
      })),
    ],
  };
};

/**
 * Stores accepted emails and hands them to the pipeline: counts the quota, puts large content in
 * the content store, writes the email items (batch writes in parallel chunks, plus attachment
 * chunks), then queues the immediate ones (ten to a queue request) and schedules the others. An
 * email stored but not yet queued is re-queued by the sweeper. Nothing is written before the
 * caller's request-rate count is in. Where the quota only counts (self-hosted), the count and the
 * items are written in the same round trip.
 */
export const acceptEmails = async (
  deps: Deps,
  caller: Caller,
  prepared: readonly PreparedEmail[],
): Promise<EmailItem[]> => {
  if (prepared.length === 0) return [];
  await caller.admitted;
  const counting = reserveQuota(deps, caller.team, prepared.length);
  const admissions = quotaOnlyCounts(deps) ? prepared.map(() => 'send' as const) : await counting;
  const built = await Promise.all(
    prepared.map((p, i) =>
      toItems(
        deps,
        caller.team.id,
        p,
        p.held
          ? 'held'
          : admissions[i] === 'park'
            ? 'queued_quota'
            : p.scheduledAt !== undefined
              ? 'scheduled'
              : 'queued',
      ),
    ),
  );
  // email.scheduled is stored with the email it describes (same batch write).
  const scheduledEvents = built
    .filter((b) => b.email.status === 'scheduled')
    .map((b) => eventItem(deps, caller.team.id, 'email.scheduled', emailEventData(b.email)));
  // email.suppressed, one per recipient left out for being on the suppression list, likewise.
  const suppressedEvents = built.flatMap((b, i) =>
    (prepared[i]!.suppressed ?? []).map((s) =>
      eventItem(deps, caller.team.id, 'email.suppressed', suppressedEventData(b.email, s.address, s.origin)),
    ),
  );
  await Promise.all([
    counting,
    batchWriteItems(deps, {
      put: [
        ...built.flatMap((b) => b.items),
        ...scheduledEvents.map((e) => e.item),
        ...suppressedEvents.map((e) => e.item),
      ],
    }),
  ]);
  const emails = built.map((b) => b.email);
  // The metrics count each recipient left out once: an accept runs once per email (a retried request replays its answer).
  await Promise.all(emails.map((e, i) => countMetrics(deps, e, { suppressed: prepared[i]!.suppressed?.length ?? 0 })));
  await deps.queue.send(deps.config.SEND_QUEUE_URL, emails.filter((e) => e.status === 'queued').map(sendJob));
  deps.metrics.addMetric('EmailsAccepted', 'Count', emails.length);
  deps.logger.info('emails accepted', { email_ids: emails.map((e) => e.id) });
  for (const e of emails.filter((x) => x.status === 'scheduled')) {
    await deps.scheduler.schedule({
      name: scheduleName(e.id),
      at: Date.parse(e.scheduled_at!),
      queueUrl: deps.config.SEND_QUEUE_URL,
      body: sendJob(e).body,
    });
  }
  await publishEvents(
    deps,
    [...scheduledEvents, ...suppressedEvents].map((e) => e.record),
  );
  return emails;
};
