import type { BroadcastItem, Checkpoint } from '../../table/broadcasts.ts';
import { slotAt, storedSchedule } from './plan.ts';

/** Why a broadcast is no longer a draft, in words. */
export const notDraftAnyMore = (b: Pick<BroadcastItem, 'status'>): string =>
  b.status === 'canceled' ? 'This broadcast was canceled' : 'This broadcast was already sent or scheduled';

/** The eligible count: final once the fan-out is done, else the planned audience less what was skipped so far. */
export const eligibleCount = (b: BroadcastItem, cp: Checkpoint): number => {
  if (cp.done) return cp.index;
  const skipped = cp.skipped.unsubscribed + cp.skipped.suppressed + cp.skipped.opted_out;
  return Math.max(cp.index, (b.plan?.audience ?? 0) - skipped);
};

/** What `canceled_remaining` says: eligible recipients the broadcast will not send to. */
export const canceledRemaining = (b: BroadcastItem, cp: Checkpoint): number =>
  Math.max(0, eligibleCount(b, cp) - (b.sent_count ?? 0) - (b.failed_count ?? 0));

/** The wire status: stored draft / canceled, and for a sent broadcast scheduled, queued, sending or sent. */
const broadcastStatus = (b: BroadcastItem, cp: Checkpoint, now: number): string => {
  if (b.status !== 'sending' || !b.plan) return b.status;
  if (cp.done && (b.sent_count ?? 0) + (b.failed_count ?? 0) >= cp.index) return 'sent';
  if (now < b.plan.starts_at) return b.scheduled_at ? 'scheduled' : 'queued';
  return 'sending';
};

/**
 * The live finishes_at: the plan's slot for the last eligible recipient, later when sending has
 * fallen behind it; the actual last send once sent (null when none was); null for drafts and
 * canceled broadcasts.
 */
const liveFinishesAt = (b: BroadcastItem, cp: Checkpoint, now: number): string | null => {
  if (!b.plan || b.status !== 'sending') return null;
  const status = broadcastStatus(b, cp, now);
  if (status === 'sent') return b.last_sent_at ?? null;
  const expected = eligibleCount(b, cp);
  const remaining = expected - (b.sent_count ?? 0) - (b.failed_count ?? 0);
  const planned = expected === 0 ? b.plan.starts_at : slotAt(storedSchedule(b.plan), expected - 1);
  const behind = now >= b.plan.starts_at ? now + Math.ceil((remaining * 1000) / b.plan.rate) : planned;
  return new Date(Math.max(planned, behind)).toISOString();
};

/**
 * When sending began: null for a draft, while a scheduled or queued broadcast waits for its start,
 * and for one canceled before it; else the send request's time, or the start it waited for.
 */
const sentAt = (b: BroadcastItem, now: number): string | null => {
  if (!b.plan || !b.sent_at) return null;
  const until = b.status === 'canceled' && b.canceled_at ? Date.parse(b.canceled_at) : now;
  if (until < b.plan.starts_at) return null;
  return new Date(Math.max(Date.parse(b.sent_at), b.plan.starts_at)).toISOString();
};

/** The wire Broadcast (the SDK's fields, plus sent_count, finishes_at, canceled_remaining and the skip counts). */
export const broadcastView = (b: BroadcastItem, cp: Checkpoint, now: number) => ({
  object: 'broadcast' as const,
  id: b.id,
  name: b.name,
  segment_id: b.segment_id,
  audience_id: b.segment_id,
  topic_id: b.topic_id,
  from: b.from,
  subject: b.subject,
  reply_to: b.reply_to,
  preview_text: b.preview_text,
  html: b.html,
  text: b.text,
  status: broadcastStatus(b, cp, now),
  created_at: b.created_at,
  scheduled_at: b.scheduled_at,
  sent_at: sentAt(b, now),
  sent_count: b.sent_count ?? 0,
  finishes_at: liveFinishesAt(b, cp, now),
  ...(b.status === 'canceled'
    ? { canceled_remaining: canceledRemaining(b, cp), canceled_at: b.canceled_at ?? null }
    : {}),
  skipped: { ...cp.skipped },
});

/** A list row. */
export const broadcastRow = (b: BroadcastItem, cp: Checkpoint, now: number) => {
  const v = broadcastView(b, cp, now);
  return {
    id: v.id,
    name: v.name,
    audience_id: v.audience_id,
    segment_id: v.segment_id,
    status: v.status,
    created_at: v.created_at,
    scheduled_at: v.scheduled_at,
    sent_at: v.sent_at,
    topic_id: v.topic_id,
    sent_count: v.sent_count,
    finishes_at: v.finishes_at,
  };
};
