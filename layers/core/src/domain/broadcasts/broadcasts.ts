import type { Deps } from '../../runtime/deps.ts';
import { ApiError, notFound, validationError } from '../../errors/api-error.ts';
import type { CreateBroadcastRequest, UpdateBroadcastRequest } from '../../schemas/broadcasts.ts';
import { parseMailbox, parseMailboxList } from '../emails/rules/addresses.ts';
import { getSegment } from '../segments/segment.ts';
import { getTopic } from '../topics/topic.ts';
import { getTemplate } from '../templates/get-template.ts';
import {
  NEW_CHECKPOINT,
  deleteDraft,
  pageBroadcasts,
  putBroadcast,
  readBroadcast,
  readBroadcastWithCheckpoint,
  type BroadcastItem,
  type Checkpoint,
} from '../../table/broadcasts.ts';
import { slotAt, storedSchedule } from './plan.ts';
import type { Page, PageRequest } from '../paging.ts';

export type { BroadcastItem } from '../../table/broadcasts.ts';

/** Why a broadcast is no longer a draft, in words. */
export const notDraftAnyMore = (b: Pick<BroadcastItem, 'status'>): string =>
  b.status === 'canceled' ? 'This broadcast was canceled' : 'This broadcast was already sent or scheduled';

const editRefused = (b: BroadcastItem) =>
  new ApiError(
    'invalid_parameter',
    `${notDraftAnyMore(b)}; only drafts can be changed. Duplicate it (POST /broadcasts/${b.id}/duplicate) and edit the copy.`,
  );

const replyToList = (r: string | string[] | null | undefined): string[] | null =>
  r === undefined || r === null ? null : Array.isArray(r) ? r : [r];

const checkRefs = async (
  deps: Deps,
  teamId: string,
  input: {
    segment_id?: string | undefined;
    audience_id?: string | undefined;
    topic_id?: string | null | undefined;
    from?: string | undefined;
    reply_to?: string | string[] | null | undefined;
  },
) => {
  const segmentId = input.segment_id ?? input.audience_id;
  if (segmentId)
    await getSegment(deps, teamId, segmentId).catch(() => {
      throw validationError(`\`segment_id\`: this team has no segment ${segmentId}.`);
    });
  if (input.topic_id)
    await getTopic(deps, teamId, input.topic_id).catch(() => {
      throw validationError(`\`topic_id\`: this team has no topic ${input.topic_id}.`);
    });
  if (input.from) parseMailbox(input.from, 'from');
  if (input.reply_to) parseMailboxList(input.reply_to, 'reply_to');
};

/** The body a template gives a broadcast: its own copy (deleting the template later changes nothing). */
const fromTemplate = async (deps: Deps, teamId: string, ref: NonNullable<CreateBroadcastRequest['template']>) => {
  const t = await getTemplate(deps, teamId, ref.id).catch(() => {
    throw validationError(`\`template.id\`: this team has no template with the id or alias \`${ref.id}\`.`);
  });
  const fallbacks = Object.fromEntries(
    t.variables
      .filter((x) => typeof x.fallback_value === 'string' || typeof x.fallback_value === 'number')
      .map((x) => [x.key, x.fallback_value as string | number]),
  );
  return {
    html: t.html,
    text: t.text,
    from: t.from,
    subject: t.subject,
    reply_to: t.reply_to,
    template_variables: { ...fallbacks, ...(ref.variables ?? {}) },
  };
};

/** Creates a draft (POST /broadcasts; the handler sends it at once when asked). */
export const createBroadcast = async (
  deps: Deps,
  teamId: string,
  input: CreateBroadcastRequest,
): Promise<BroadcastItem> => {
  await checkRefs(deps, teamId, input);
  const t = input.template ? await fromTemplate(deps, teamId, input.template) : undefined;
  const from = input.from ?? t?.from;
  const subject = input.subject ?? t?.subject;
  if (!from) throw validationError('`from` is required: the template has no sender, so give `from`.');
  if (!subject) throw validationError('`subject` is required: the template has no subject, so give `subject`.');
  const now = new Date(deps.clock.now()).toISOString();
  const b: BroadcastItem = {
    id: deps.ids.next(),
    team_id: teamId,
    name: input.name ?? null,
    segment_id: (input.segment_id ?? input.audience_id)!,
    topic_id: input.topic_id ?? null,
    from,
    subject,
    reply_to: replyToList(input.reply_to) ?? t?.reply_to ?? null,
    preview_text: input.preview_text ?? null,
    html: t ? t.html : (input.html ?? null),
    text: t ? t.text : (input.text ?? null),
    template_variables: t?.template_variables ?? null,
    status: 'draft',
    created_at: now,
    updated_at: now,
    scheduled_at: null,
    sent_at: null,
  };
  await putBroadcast(deps, b);
  return b;
};

/** Reads a broadcast and its fan-out checkpoint; another team's answers 404. */
export const getBroadcast = async (
  deps: Deps,
  teamId: string,
  id: string,
): Promise<{ broadcast: BroadcastItem; checkpoint: Checkpoint }> => {
  const { broadcast, checkpoint } = await readBroadcastWithCheckpoint(deps, teamId, id);
  if (!broadcast) throw notFound(`Broadcast ${id}`);
  return { broadcast, checkpoint };
};

const draftOf = async (deps: Deps, teamId: string, id: string): Promise<BroadcastItem> => {
  const b = await readBroadcast(deps, teamId, id);
  if (!b) throw notFound(`Broadcast ${id}`);
  if (b.status !== 'draft') throw editRefused(b);
  return b;
};

/** Changes a draft; a sent broadcast answers 400 invalid_parameter. */
export const updateBroadcast = async (
  deps: Deps,
  teamId: string,
  id: string,
  change: UpdateBroadcastRequest,
): Promise<BroadcastItem> => {
  const b = await draftOf(deps, teamId, id);
  await checkRefs(deps, teamId, change);
  const t = change.template ? await fromTemplate(deps, teamId, change.template) : undefined;
  const next: BroadcastItem = {
    ...b,
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...((change.segment_id ?? change.audience_id) ? { segment_id: (change.segment_id ?? change.audience_id)! } : {}),
    ...(change.topic_id !== undefined ? { topic_id: change.topic_id } : {}),
    ...(change.from !== undefined ? { from: change.from } : t?.from ? { from: t.from } : {}),
    ...(change.subject !== undefined ? { subject: change.subject } : t?.subject ? { subject: t.subject } : {}),
    ...(change.reply_to !== undefined ? { reply_to: replyToList(change.reply_to) } : {}),
    ...(change.preview_text !== undefined ? { preview_text: change.preview_text } : {}),
    ...(t ? { html: t.html, text: t.text, template_variables: t.template_variables } : {}),
    ...(change.html !== undefined ? { html: change.html } : {}),
    ...(change.text !== undefined ? { text: change.text } : {}),
    updated_at: new Date(deps.clock.now()).toISOString(),
  };
  if (!next.html && !next.text)
    throw validationError('A broadcast needs `html` or `text`; this change would leave it without a body.');
  if (!(await putBroadcast(deps, next, 'draft'))) throw editRefused({ ...b, status: 'sending' });
  return next;
};

/** Deletes a draft; a sent broadcast answers 400 invalid_parameter (cancel it instead). */
export const deleteBroadcast = async (deps: Deps, teamId: string, id: string): Promise<void> => {
  const b = await readBroadcast(deps, teamId, id);
  if (!b) throw notFound(`Broadcast ${id}`);
  if (b.status !== 'draft' || !(await deleteDraft(deps, teamId, id))) {
    throw new ApiError(
      'invalid_parameter',
      `Only draft broadcasts can be deleted; this one is no longer a draft (sent, scheduled or canceled). Cancel it with POST /broadcasts/${id}/cancel.`,
    );
  }
};

/** Copies a broadcast (any status) into a new draft. */
export const duplicateBroadcast = async (deps: Deps, teamId: string, id: string): Promise<BroadcastItem> => {
  const b = await readBroadcast(deps, teamId, id);
  if (!b) throw notFound(`Broadcast ${id}`);
  const now = new Date(deps.clock.now()).toISOString();
  const copy: BroadcastItem = {
    id: deps.ids.next(),
    team_id: teamId,
    name: b.name,
    segment_id: b.segment_id,
    topic_id: b.topic_id,
    from: b.from,
    subject: b.subject,
    reply_to: b.reply_to,
    preview_text: b.preview_text,
    html: b.html,
    text: b.text,
    template_variables: b.template_variables,
    status: 'draft',
    created_at: now,
    updated_at: now,
    scheduled_at: null,
    sent_at: null,
  };
  await putBroadcast(deps, copy);
  return copy;
};

/** A page of the team's broadcasts, each with its checkpoint (for the live status). */
export const listBroadcasts = async (
  deps: Deps,
  teamId: string,
  page: PageRequest,
): Promise<Page<{ broadcast: BroadcastItem; checkpoint: Checkpoint }>> => {
  const { items, hasMore } = await pageBroadcasts(deps, teamId, page);
  // Broadcasts still sending are read whole (their counters decide sending or sent); the rest need no more.
  const live = new Map(
    await Promise.all(
      items
        .filter((b) => b.status === 'sending')
        .map(async (b) => [b.id, await readBroadcastWithCheckpoint(deps, teamId, b.id)] as const),
    ),
  );
  return {
    items: items.map((b) => ({
      broadcast: live.get(b.id)?.broadcast ?? b,
      checkpoint: live.get(b.id)?.checkpoint ?? NEW_CHECKPOINT,
    })),
    hasMore,
  };
};

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
 * fallen behind it; the actual last send once sent; null for drafts and canceled broadcasts.
 */
const liveFinishesAt = (b: BroadcastItem, cp: Checkpoint, now: number): string | null => {
  if (!b.plan || b.status !== 'sending') return null;
  const status = broadcastStatus(b, cp, now);
  if (status === 'sent') return b.last_sent_at ?? new Date(b.plan.starts_at).toISOString();
  const expected = eligibleCount(b, cp);
  const remaining = expected - (b.sent_count ?? 0) - (b.failed_count ?? 0);
  const planned = expected === 0 ? b.plan.starts_at : slotAt(storedSchedule(b.plan), expected - 1);
  const behind = now >= b.plan.starts_at ? now + Math.ceil((remaining * 1000) / b.plan.rate) : planned;
  return new Date(Math.max(planned, behind)).toISOString();
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
  sent_at: b.sent_at,
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
