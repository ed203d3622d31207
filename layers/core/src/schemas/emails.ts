import * as v from 'valibot';
import { Id, ReplyToList, Timestamp } from './common.ts';
import { EmailTemplateRef } from './templates.ts';
import { MAX_SUBJECT_LENGTH, MAX_TAG_LENGTH, MAX_TAGS } from '../limits.ts';
import { LAST_EVENTS } from '../domain/emails/email.ts';

const AddressOrList = (field: string) =>
  v.union([v.string(), v.array(v.string())], `must be an address or an array of addresses (${field}).`);
const TagPart = v.pipe(
  v.string('must be a string.'),
  v.regex(
    new RegExp(`^[A-Za-z0-9_-]{1,${MAX_TAG_LENGTH}}$`),
    `may hold only ASCII letters, digits, underscores and dashes (at most ${MAX_TAG_LENGTH}).`,
  ),
);
const Tag = v.strictObject({ name: TagPart, value: TagPart });

/** A field whose `null` reads as the field left out. */
const AbsentWhenNull = <S extends v.GenericSchema>(schema: S) =>
  v.pipe(
    v.nullable(schema),
    v.transform((value) => value ?? undefined),
  );

/** One email to send (POST /emails, and each item of POST /emails/batch). */
export const SendEmailRequest = v.pipe(
  v.strictObject({
    from: v.optional(v.string('is required: the sender, e.g. `Acme <hello@acme.com>`.')),
    to: AddressOrList('to'),
    subject: v.optional(
      v.pipe(
        v.string('is required.'),
        v.maxLength(MAX_SUBJECT_LENGTH, `must be at most ${MAX_SUBJECT_LENGTH} characters.`),
      ),
    ),
    cc: v.optional(AddressOrList('cc')),
    bcc: v.optional(AddressOrList('bcc')),
    reply_to: v.optional(ReplyToList),
    // null is the body left out: the official Laravel transport sends the body a Mailable lacks as null.
    html: v.optional(AbsentWhenNull(v.string('must be a string.'))),
    text: v.optional(AbsentWhenNull(v.string('must be a string.'))),
    // Their count and sizes are checked by the send rules (rules/headers.ts, rules/attachments.ts).
    headers: v.optional(v.record(v.string(), v.unknown(), 'must be an object of header names to string values.')),
    attachments: v.optional(v.array(v.unknown(), 'must be an array.')),
    tags: v.optional(
      v.pipe(
        v.array(Tag, 'must be an array of {name, value}.'),
        v.maxLength(MAX_TAGS, `may hold at most ${MAX_TAGS} tags.`),
      ),
    ),
    scheduled_at: v.optional(v.string('must be an ISO 8601 date-time.')),
    topic_id: v.optional(v.nullable(v.pipe(v.string(), v.uuid('must be the id of a topic.')))),
    template: v.optional(EmailTemplateRef),
  }),
  v.forward(
    v.check(
      (e) => e.template !== undefined || e.from !== undefined,
      'is required: the sender, e.g. `Acme <hello@acme.com>` (or send with a `template` that has one).',
    ),
    ['from'],
  ),
  v.forward(
    v.check(
      (e) => e.template !== undefined || e.subject !== undefined,
      'is required (or send with a `template` that has one).',
    ),
    ['subject'],
  ),
  v.check(
    (e) => e.template === undefined || (e.html === undefined && e.text === undefined),
    '`template` gives the body: leave out `html` and `text` when sending with a template.',
  ),
  v.check(
    (e) => e.template !== undefined || e.html !== undefined || e.text !== undefined,
    'Give `html` or `text` (or both), or a `template`: the email needs a body.',
  ),
);
export type SendEmailRequest = v.InferOutput<typeof SendEmailRequest>;

/** An email with its template applied: sender, subject and body are known. */
export type ResolvedEmail = Omit<SendEmailRequest, 'from' | 'subject' | 'template'> & { from: string; subject: string };

/** POST /emails/batch: a bare array of 1 to 100 emails (each checked on its own). */
export const SendBatchRequest = v.pipe(
  v.array(v.unknown(), 'The body must be a JSON array of emails.'),
  v.minLength(1, 'The batch must hold at least one email.'),
  v.maxLength(100, 'A batch holds at most 100 emails.'),
);

/** PATCH /emails/{id}: reschedule. */
export const UpdateEmailRequest = v.strictObject({
  scheduled_at: v.string('is required: the new ISO 8601 send time.'),
});

/** POST /emails/{id}/share: how long the link works (a duration such as `10m` or `2 hours`; 48 hours at most, and when absent). */
export const ShareEmailRequest = v.optional(
  v.strictObject({
    expires_in: v.optional(
      v.string('must be a string: a duration such as "10m", "2 hours" or "1 day", up to 48 hours.'),
    ),
  }),
);

/** The answer of POST /emails/{id}/share: the link, and when it stops working. */
export const SharedEmailLink = v.object({
  object: v.literal('email'),
  id: Id,
  url: v.string(),
  expires_at: Timestamp,
});

/** The wire values of `last_event`. */
export const LastEvent = v.picklist(LAST_EVENTS);
/** The Email object (GET /emails/{id}, list items, cancel). */
export const EmailObject = v.object({
  object: v.literal('email'),
  id: Id,
  message_id: v.string(),
  from: v.string(),
  to: v.array(v.string()),
  cc: v.nullable(v.array(v.string())),
  bcc: v.nullable(v.array(v.string())),
  reply_to: v.nullable(v.array(v.string())),
  subject: v.string(),
  html: v.nullable(v.string()),
  text: v.nullable(v.string()),
  created_at: Timestamp,
  scheduled_at: v.nullable(Timestamp),
  last_event: LastEvent,
  tags: v.array(v.object({ name: v.string(), value: v.string() })),
  topic_id: v.nullable(Id),
});
/** POST /emails */
export const SentEmail = v.object({ id: Id });
/** POST /emails/batch: `errors` only in permissive mode. */
export const SentBatch = v.object({
  data: v.array(SentEmail),
  errors: v.optional(v.array(v.object({ index: v.pipe(v.number(), v.integer()), message: v.string() }))),
});
/** PATCH /emails/{id} */
export const RescheduledEmail = v.object({ object: v.literal('email'), id: Id, scheduled_at: v.nullable(Timestamp) });
