import { createHash } from 'node:crypto';
import type { Deps } from '../../runtime/deps.ts';
import { keys } from '../../table/keys.ts';
import { batchGetItems, batchWriteItems } from '../../table/ops.ts';
import {
  advanceCheckpoint,
  readBroadcastWithCheckpoint,
  releaseLane,
  segmentMemberPage,
  topicChoicesOf,
  writeRecipientEmails,
  writeSkips,
  type BroadcastItem,
  type Checkpoint,
} from '../../table/broadcasts.ts';
import { contactFromItem, type Contact } from '../contacts/contact.ts';
import { propertyTypes } from '../contacts/contact-property.ts';
import { findSuppressed } from '../suppressions/suppression-store.ts';
import { getTopic } from '../topics/topic.ts';
import { getTeam } from '../teams/team.ts';
import { countSends } from '../quotas/reserve-quota.ts';
import { parseMailbox } from '../emails/rules/addresses.ts';
import type { EmailItem, SendJob } from '../emails/email.ts';
import { rowAndBody, storeLargeContent } from '../emails/email-content.ts';
import { emailExpiry } from '../emails/retention.ts';
import { MAX_STORED_BODY_BYTES, MAX_SUBJECT_LENGTH } from '../../limits.ts';
import { render } from '../templates/render.ts';
import { recipientLookup } from './personalize.ts';
import { slotAt, storedSchedule } from './plan.ts';
import { sleepUntil } from '../../ports/clock.ts';
import type { Subscription } from '../topics/vocabulary.ts';

/** The message the fan-out worker takes. */
export interface FanOutJob {
  readonly teamId: string;
  readonly broadcastId: string;
}

/** The scheduler name of a broadcast's next fan-out step. */
export const fanOutScheduleName = (broadcastId: string): string => `broadcast-${broadcastId}`;

/** Starts (or resumes) a broadcast's fan-out now. */
export const kickFanOut = (deps: Deps, job: FanOutJob) =>
  deps.queue.send(deps.config.FANOUT_QUEUE_URL, [{ body: job }]);

/** Segment members read per page. */
const FANOUT_PAGE = 100;
/** Recipients are queued at most this long before their slot (SQS holds each until its slot). */
const LOOKAHEAD_MS = 60_000;
/** One fan-out invocation works at most this long, then hands over to a fresh one. */
const STEP_BUDGET_MS = 20_000;

/**
 * A recipient's email id, the same on every attempt (broadcast + contact), so a resumed page
 * finds the email a crashed one wrote instead of making a second. Keeps the broadcast id's time
 * prefix so the team's email list stays in time order.
 */
export const recipientEmailId = (broadcastId: string, contactId: string): string => {
  const h = createHash('sha256').update(`${broadcastId}:${contactId}`).digest('hex');
  const variant = ((parseInt(h[15]!, 16) & 3) | 8).toString(16);
  return `${broadcastId.slice(0, 8)}-${broadcastId.slice(9, 13)}-8${h.slice(0, 3)}-${variant}${h.slice(3, 6)}-${h.slice(6, 18)}`;
};

/** How far into a second the fan-out still queues a page's jobs; later, it waits for the next second. */
const QUEUE_WITHIN_MS = 300;

/** Now, when it is early in its second (or the clock cannot wait); else the start of the next second, once waited for. */
const earlyInASecond = async (deps: Deps): Promise<number> => {
  const now = deps.clock.now();
  if (now % 1000 <= QUEUE_WITHIN_MS || !deps.clock.sleep) return now;
  const next = Math.ceil(now / 1000) * 1000;
  await sleepUntil(deps.clock, next);
  return Math.max(next, deps.clock.now());
};

/**
 * The queue delay that brings a job queued at `queuedAt` back in the calendar second after its
 * slot's (whole seconds, at most SQS's 15 minutes); 0 for a slot already past.
 */
export const arrivalDelaySeconds = (slot: number, queuedAt: number): number =>
  slot < queuedAt ? 0 : Math.min(900, Math.floor(slot / 1000) + 1 - Math.floor(queuedAt / 1000));

type Skip = 'unsubscribed' | 'suppressed' | 'opted_out';

const preheader = (text: string | null) =>
  text ? `<div style="display:none;max-height:0;overflow:hidden">${text.replace(/[<>&]/g, '')}</div>` : '';

/** The email a recipient gets: the broadcast rendered with the contact's values. */
const recipientEmail = (
  b: BroadcastItem,
  contact: Contact,
  lookup: ReturnType<typeof recipientLookup>,
  slot: number,
  now: string,
): EmailItem => {
  const id = recipientEmailId(b.id, contact.id);
  return {
    type: 'email',
    id,
    team_id: b.team_id,
    from: parseMailbox(b.from, 'from').formatted,
    to: [contact.email],
    cc: [],
    bcc: [],
    reply_to: b.reply_to ?? [],
    subject: render(b.subject, lookup, 'text')
      .slice(0, MAX_SUBJECT_LENGTH)
      .replace(/[\uD800-\uDBFF]$/, ''),
    html: b.html === null ? null : preheader(b.preview_text) + render(b.html, lookup, 'html'),
    text: b.text === null ? null : render(b.text, lookup, 'text'),
    headers: null,
    tags: [],
    topic_id: b.topic_id,
    attachment_chunks: 0,
    attachments: [],
    status: 'queued',
    created_at: now,
    scheduled_at: null,
    message_id: `<${id}@${b.domain_name}>`,
    provider_message_id: null,
    domain_id: b.domain_id!,
    region: b.region!,
    attempts: 0,
    failure_reason: null,
    updated_at: now,
    broadcast_id: b.id,
    contact_id: contact.id,
    slot_at: new Date(slot).toISOString(),
  };
};

/**
 * A recipient's email as its row keeps it. The broadcast's bodies are bounded (MAX_STORED_BODY_BYTES
 * each), but rendering can grow them (every placeholder takes a property value of up to 1,000
 * characters): a rendered body past that bound goes to the content store, as a large email's does,
 * so the row stays inside the table's item limit. Its key is the email's, so a resumed page
 * rewrites the same object.
 */
const offTheRow = async (deps: Deps, email: EmailItem): Promise<EmailItem> => {
  const stored = await storeLargeContent(
    deps,
    email.team_id,
    email.id,
    { html: email.html, text: email.text, attachments: Buffer.alloc(0) },
    MAX_STORED_BODY_BYTES,
  );
  return stored.refs ? { ...email, html: stored.html, text: stored.text, content_refs: stored.refs } : email;
};

/**
 * One step of a broadcast's fan-out: pages the segment from the checkpoint, skips (and counts)
 * unsubscribed contacts, suppressed addresses and topic opt-outs (each with its recipient row),
 * writes each eligible recipient's email (deterministic id, only if absent; its recipient row
 * comes with its outcome) and queues its send job to arrive at its planned slot, then advances
 * the checkpoint. Pages no further ahead than the look-ahead: the rest is continued by a schedule. A canceled broadcast's fan-out only counts the rest, writing nothing.
 * Past `budgetMs` (default STEP_BUDGET_MS) a fresh step takes over through the queue.
 */
export const fanOutBroadcast = async (
  deps: Deps,
  job: FanOutJob,
  options: { budgetMs?: number } = {},
): Promise<void> => {
  const budgetMs = options.budgetMs ?? STEP_BUDGET_MS;
  const began = deps.clock.now();
  const team = await getTeam(deps, job.teamId);
  if (!team) return;
  let declared: Awaited<ReturnType<typeof propertyTypes>> | undefined;
  let topicDefault: Subscription | undefined;
  for (;;) {
    const { broadcast: b, checkpoint: cp } = await readBroadcastWithCheckpoint(
      deps,
      job.teamId,
      job.broadcastId,
      false,
    );
    if (!b?.plan || b.status === 'draft' || cp.done) return;
    const canceled = b.status === 'canceled';
    const plan = storedSchedule(b.plan);
    const now = deps.clock.now();
    if (!canceled) {
      const next = slotAt(plan, cp.index);
      if (next > now + LOOKAHEAD_MS) {
        // Not due yet: come back through the scheduler shortly before the next slot.
        await deps.scheduler.schedule({
          name: fanOutScheduleName(b.id),
          at: next - LOOKAHEAD_MS / 2,
          queueUrl: deps.config.FANOUT_QUEUE_URL,
          body: job,
        });
        return;
      }
    }
    declared ??= await propertyTypes(deps, b.team_id);
    if (b.topic_id && topicDefault === undefined)
      topicDefault = await getTopic(deps, b.team_id, b.topic_id).then(
        (t) => t.defaultSubscription,
        () => 'opt_out' as const,
      );

    const page = await segmentMemberPage(deps, b.team_id, b.segment_id, cp.cursor, FANOUT_PAGE);
    const contacts = new Map(
      (
        await batchGetItems(
          deps,
          page.ids.map((c) => keys.contact.item(b.team_id, c)),
        )
      ).map((i) => [i.id as string, contactFromItem(i)]),
    );
    const present = page.ids.map((c) => contacts.get(c)).filter((c): c is Contact => c !== undefined);
    const [suppressed, choices] = await Promise.all([
      findSuppressed(
        deps,
        b.team_id,
        present.map((c) => c.email),
        { withTopic: true },
      ),
      b.topic_id
        ? topicChoicesOf(
            deps,
            b.team_id,
            b.topic_id,
            present.map((c) => c.id),
          )
        : Promise.resolve(new Map<string, Subscription>()),
    ]);
    const skipped = { ...cp.skipped };
    const skips: { contact: Contact; reason: Skip }[] = [];
    const eligible: Contact[] = [];
    for (const c of present) {
      const reason: Skip | null = c.unsubscribed
        ? 'unsubscribed'
        : suppressed.has(c.email.toLowerCase())
          ? 'suppressed'
          : b.topic_id && (choices.get(c.id) ?? topicDefault) === 'opt_out'
            ? 'opted_out'
            : null;
      if (reason) {
        skipped[reason]++;
        skips.push({ contact: c, reason });
      } else eligible.push(c);
    }
    if (!canceled) {
      const nowIso = new Date(now).toISOString();
      const rows = await Promise.all(
        eligible.map(async (c, k) => {
          const email = await offTheRow(
            deps,
            recipientEmail(
              b,
              c,
              recipientLookup(c, declared!, b.template_variables),
              slotAt(plan, cp.index + k),
              nowIso,
            ),
          );
          const { row, body } = rowAndBody({
            ...keys.email.item(b.team_id, email.id),
            ...keys.email.listing(b.team_id, email.id),
            ...keys.email.sendDue(email.id, email.slot_at!),
            ...email,
          });
          // Under the email retention, the email's items expire with it.
          const expiry = emailExpiry(deps, now);
          return { row: { ...row, ...expiry }, ...(body ? { body: { ...body, ...expiry } } : {}) };
        }),
      );
      // Bodies first (a row never names a missing body item; rewriting one of a resumed page is
      // harmless), then the rows, each only if absent.
      await batchWriteItems(deps, { put: rows.flatMap((r) => (r.body ? [r.body] : [])) });
      await writeRecipientEmails(
        deps,
        rows.map((r) => r.row),
      );
      await writeSkips(
        deps,
        skips.map(({ contact: c, reason }) => ({
          ...keys.broadcast.recipient(b.team_id, b.id, c.id),
          type: 'broadcast_recipient',
          contact_id: c.id,
          email: c.email.toLowerCase(),
          email_id: null,
          status: reason,
          updated_at: nowIso,
        })),
      );
      // Queued early in a second, each job arrives in the calendar second after its slot's (SQS
      // counts its delay in whole seconds from the send), so a second's arrivals are one planned
      // second's recipients: never more than the broadcast share that the send worker counts per
      // second. Queued late in a second, the jobs of one planned second would arrive straddling
      // two, and the second that got too many would turn some away. Never before the slot: a job
      // arriving early would only wait again (broadcastSlotWait).
      const queuedAt = await earlyInASecond(deps);
      await deps.queue.send(
        deps.config.BROADCAST_QUEUE_URL,
        rows.map((r) => {
          const body: SendJob = { teamId: b.team_id, emailId: r.row.id };
          const delay = arrivalDelaySeconds(Date.parse(r.row.slot_at!), queuedAt);
          return { body, ...(delay > 0 ? { delaySeconds: delay } : {}) };
        }),
      );
    }
    const next: Checkpoint = {
      cursor: page.ids.at(-1) ?? cp.cursor,
      index: cp.index + eligible.length,
      skipped,
      done: !page.more || page.ids.length === 0,
      version: cp.version + 1,
    };
    // Another step moved the checkpoint first (a duplicate message): it carries on, this one stops.
    if (!(await advanceCheckpoint(deps, b.team_id, b.id, cp, next))) return;
    if (!canceled) await countSends(deps, team, eligible.length);
    if (next.done) {
      if (canceled && b.region) await releaseLane(deps, b.region, b.id);
      return;
    }
    if (deps.clock.now() - began > budgetMs) {
      await kickFanOut(deps, job);
      return;
    }
  }
};
