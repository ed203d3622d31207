import * as v from 'valibot';
import { EmailTemplateRef } from './templates.ts';
import { Id, PageLimit, ReplyToList, StoredBody, Timestamp } from './common.ts';
import { MAX_SUBJECT_LENGTH } from '../limits.ts';

const IdOf = (what: string) => v.pipe(v.string(`must be the id of a ${what}.`), v.uuid(`must be the id of a ${what}.`));

const fields = {
  name: v.optional(
    v.nullable(v.pipe(v.string('must be a string.'), v.maxLength(200, 'must be at most 200 characters.'))),
  ),
  segment_id: v.optional(IdOf('segment')),
  audience_id: v.optional(IdOf('segment (audiences are segments)')),
  from: v.optional(v.string('must be a sender such as `Acme <news@acme.com>`.')),
  subject: v.optional(
    v.pipe(
      v.string('must be a string.'),
      v.minLength(1, 'may not be empty.'),
      v.maxLength(MAX_SUBJECT_LENGTH, `must be at most ${MAX_SUBJECT_LENGTH} characters.`),
    ),
  ),
  reply_to: v.optional(v.nullable(ReplyToList)),
  preview_text: v.optional(
    v.nullable(v.pipe(v.string('must be a string.'), v.maxLength(500, 'must be at most 500 characters.'))),
  ),
  html: v.optional(v.nullable(v.pipe(v.string('must be a string.'), StoredBody))),
  text: v.optional(v.nullable(v.pipe(v.string('must be a string.'), StoredBody))),
  topic_id: v.optional(v.nullable(IdOf('topic'))),
  template: v.optional(EmailTemplateRef),
};

const SAME_SEGMENT = '`segment_id` and `audience_id` (its older name) name different segments; give one.';
const NOT_BOTH = '`template` gives the body: leave out `html` and `text` when making a broadcast from a template.';

/** POST /broadcasts */
export const CreateBroadcastRequest = v.pipe(
  v.strictObject({
    ...fields,
    send: v.optional(v.boolean('must be true or false.')),
    scheduled_at: v.optional(v.string('must be an ISO 8601 date-time or "in 2 hours".')),
  }),
  v.check((b) => !(b.segment_id && b.audience_id && b.segment_id !== b.audience_id), SAME_SEGMENT),
  v.check((b) => !(b.template && (b.html || b.text)), NOT_BOTH),
  v.forward(
    v.check(
      (b) => Boolean(b.segment_id ?? b.audience_id),
      'is required: the segment to send to (`audience_id` is accepted as its older name).',
    ),
    ['segment_id'],
  ),
  v.forward(
    v.check(
      (b) => b.template !== undefined || b.from !== undefined,
      'is required: the sender, e.g. `Acme <news@acme.com>`.',
    ),
    ['from'],
  ),
  v.forward(
    v.check((b) => b.template !== undefined || b.subject !== undefined, 'is required.'),
    ['subject'],
  ),
  v.check(
    (b) => b.template !== undefined || Boolean(b.html) || Boolean(b.text),
    'Give `html` or `text` (or both), or a `template`: the broadcast needs a body.',
  ),
  v.forward(
    v.check(
      (b) => b.scheduled_at === undefined || b.send === true,
      'may be given only with `send: true`; to schedule a draft later use POST /broadcasts/{id}/send.',
    ),
    ['scheduled_at'],
  ),
);
export type CreateBroadcastRequest = v.InferOutput<typeof CreateBroadcastRequest>;

/** PATCH /broadcasts/{id}: any create field except send and scheduled_at (drafts only). */
export const UpdateBroadcastRequest = v.pipe(
  v.strictObject(fields),
  v.check((b) => !(b.segment_id && b.audience_id && b.segment_id !== b.audience_id), SAME_SEGMENT),
  v.check((b) => !(b.template && (b.html || b.text)), NOT_BOTH),
);
export type UpdateBroadcastRequest = v.InferOutput<typeof UpdateBroadcastRequest>;

/** POST /broadcasts/{id}/send (the SDK always sends a body, `{}` when not scheduling). */
export const SendBroadcastRequest = v.optional(
  v.strictObject({ scheduled_at: v.optional(v.nullable(v.string('must be an ISO 8601 date-time or "in 2 hours".'))) }),
);

/** The recipient event types of GET /broadcasts/{id}/recipients. */
export const RECIPIENT_TYPES = [
  'sent',
  'delivered',
  'opened',
  'clicked',
  'bounced',
  'complained',
  'unsubscribed',
  'suppressed',
] as const;

/** GET /broadcasts/{id}/recipients */
export const RecipientsQuery = v.strictObject({
  type: v.picklist(RECIPIENT_TYPES, `is required: one of ${RECIPIENT_TYPES.join(', ')}.`),
  email: v.optional(v.string()),
  bounce_type: v.optional(
    v.picklist(['permanent', 'transient', 'undetermined'], 'must be permanent, transient or undetermined.'),
  ),
  limit: PageLimit,
  after: v.optional(v.string()),
  before: v.optional(v.string()),
});

// Responses.

/** What a broadcast's status reads: drafts, scheduled or queued before the first slot, sending, sent, canceled. */
export const BROADCAST_STATUSES = ['draft', 'scheduled', 'queued', 'sending', 'sent', 'canceled'] as const;

/** A broadcast as lists show it (with sent_count and the live finishes_at: spec §4, broadcast reads carry them). */
export const BroadcastRow = v.object({
  id: Id,
  name: v.nullable(v.string()),
  audience_id: v.nullable(Id),
  segment_id: v.nullable(Id),
  status: v.picklist(BROADCAST_STATUSES),
  created_at: Timestamp,
  scheduled_at: v.nullable(Timestamp),
  sent_at: v.nullable(Timestamp),
  topic_id: v.nullable(Id),
  sent_count: v.number(),
  finishes_at: v.nullable(Timestamp),
});

/** GET /broadcasts/{id}: the SDK's Broadcast, with sent_count, the live finishes_at and the skips (and canceled_remaining once canceled). */
export const BroadcastObject = v.object({
  object: v.literal('broadcast'),
  ...BroadcastRow.entries,
  from: v.nullable(v.string()),
  subject: v.nullable(v.string()),
  reply_to: v.nullable(v.array(v.string())),
  preview_text: v.nullable(v.string()),
  html: v.nullable(v.string()),
  text: v.nullable(v.string()),
  canceled_remaining: v.optional(v.number()),
  canceled_at: v.optional(v.nullable(Timestamp)),
  skipped: v.object({ unsubscribed: v.number(), suppressed: v.number(), opted_out: v.number() }),
});

/** A pacing warning of a send: the audience exceeds what is available now. */
export const PlanWarningObject = v.object({
  type: v.picklist(['paced', 'queued_behind']),
  days: v.number(),
  message: v.string(),
});

/** POST /broadcasts/{id}/send (and POST /broadcasts with send: true): the planned finish. */
export const SentBroadcast = v.object({
  object: v.literal('broadcast'),
  id: Id,
  finishes_at: v.nullable(Timestamp),
  estimated: v.literal(true),
  warning: v.optional(PlanWarningObject),
});

/** POST /broadcasts/{id}/cancel */
export const CanceledBroadcast = v.object({ object: v.literal('broadcast'), id: Id, canceled_remaining: v.number() });

/** A row of GET /broadcasts/{id}/recipients (`id` is an opaque cursor). */
export const BroadcastRecipientRow = v.object({
  id: v.string(),
  contact_id: v.nullable(Id),
  email: v.string(),
  bounce_type: v.optional(v.picklist(['permanent', 'transient', 'undetermined'])),
  /** Opened rows: the person's opens; clicked rows: their clicks. */
  count: v.optional(v.number()),
  /** Clicked rows: the person's clicks per link. */
  clicked_links: v.optional(v.array(v.object({ url: v.string(), clicks: v.number() }))),
});

/** A row of GET /broadcasts/{id}/clicked-links (`id` is an opaque cursor). */
export const BroadcastClickedLink = v.object({
  id: v.string(),
  url: v.string(),
  clicks: v.number(),
  unique_clicks: v.number(),
});
