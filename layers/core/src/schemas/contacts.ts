import * as v from 'valibot';
import { Deleted, Id, ListOf, Timestamp, commaSeparated } from './common.ts';
import { MAX_STORED_NUMBER, MAX_PROPERTY_STRING_LENGTH, MIN_STORED_NUMBER } from '../limits.ts';
import { validAddress } from '../domain/emails/rules/addresses.ts';
import { SUBSCRIPTIONS, TOPIC_VISIBILITIES } from '../domain/topics/vocabulary.ts';

/** A string property value or fallback: at most MAX_PROPERTY_STRING_LENGTH characters. */
const PropertyString = v.pipe(
  v.string(),
  v.maxLength(MAX_PROPERTY_STRING_LENGTH, `must be at most ${MAX_PROPERTY_STRING_LENGTH} characters.`),
);
/** A number property value or fallback: finite, |x| at most 2^53 - 1 (kept exactly), and 0 or |x| at least 1e-100. */
const PropertyNumber = v.pipe(
  v.number(),
  v.check(
    (n) => Number.isFinite(n) && Math.abs(n) <= MAX_STORED_NUMBER && (n === 0 || Math.abs(n) >= MIN_STORED_NUMBER),
    `must be a number from -${MAX_STORED_NUMBER} to ${MAX_STORED_NUMBER}, and 0 or at least ${MIN_STORED_NUMBER} in magnitude.`,
  ),
);
/** A property value or fallback: a bounded string, a bounded number, or null. */
const PropertyValue = v.nullable(
  v.union(
    [PropertyString, PropertyNumber],
    `must be a string (at most ${MAX_PROPERTY_STRING_LENGTH} characters), a number (magnitude ${MIN_STORED_NUMBER} to ${MAX_STORED_NUMBER}, or 0) or null.`,
  ),
);

const Email = v.pipe(
  v.string('must be a string.'),
  v.trim(),
  v.check(validAddress, 'must be an email address such as jane@example.com.'),
  v.maxLength(320),
);
const Name = v.optional(
  v.nullable(v.pipe(v.string('must be a string or null.'), v.maxLength(256, 'must be at most 256 characters.'))),
);
const PropertyValues = v.record(
  v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  PropertyValue,
  'must be an object of property keys to values.',
);
const SegmentRef = v.union(
  [
    v.pipe(v.string(), v.uuid('must be a segment id.')),
    v.strictObject({ id: v.pipe(v.string(), v.uuid('must be a segment id.')) }),
  ],
  'must be a segment id or {id}.',
);
export const TopicChoice = v.strictObject({
  id: v.pipe(v.string('is required.'), v.uuid('must be a topic id.')),
  subscription: v.picklist(SUBSCRIPTIONS, 'must be `opt_in` or `opt_out`.'),
});

/** POST /contacts (and each item of POST /contacts/batch). */
export const CreateContactRequest = v.strictObject({
  email: Email,
  first_name: Name,
  last_name: Name,
  unsubscribed: v.optional(v.boolean('must be true or false.')),
  properties: v.optional(PropertyValues),
  segments: v.optional(v.array(SegmentRef, 'must be an array of segment ids.')),
  topics: v.optional(v.array(TopicChoice, 'must be an array of {id, subscription}.')),
  /** Deprecated: the audience to add the contact to (an audience is a segment). */
  audience_id: v.optional(v.pipe(v.string(), v.uuid('must be an audience id.'))),
});
export type CreateContactRequest = v.InferOutput<typeof CreateContactRequest>;

/** PATCH /contacts/{id}. */
export const UpdateContactRequest = v.strictObject({
  first_name: Name,
  last_name: Name,
  unsubscribed: v.optional(v.boolean('must be true or false.')),
  properties: v.optional(PropertyValues),
});
export type UpdateContactRequest = v.InferOutput<typeof UpdateContactRequest>;

/** The `include` query of lists and batch get. */
export const Include = v.optional(
  v.pipe(
    v.string(),
    commaSeparated,
    v.array(v.picklist(['properties', 'topics'], 'may hold `properties` and `topics`.')),
  ),
  '',
);

/** Path of a contact: a UUID or an email address. */
export const ContactParams = v.object({ id: v.pipe(v.string(), v.minLength(1)) });

/** POST /contacts/batch/get */
export const BatchGetContactsRequest = v.strictObject({
  contacts: v.pipe(
    v.array(
      v.union(
        [v.strictObject({ id: v.pipe(v.string(), v.uuid('must be a contact id.')) }), v.strictObject({ email: Email })],
        'each item needs `id` or `email`.',
      ),
    ),
    v.minLength(1, 'must hold 1 to 1000 items.'),
    v.maxLength(1000, 'must hold 1 to 1000 items.'),
  ),
  include: v.optional(v.array(v.picklist(['properties', 'topics'], 'may hold `properties` and `topics`.'))),
});

/** POST /contacts/batch/remove */
export const BatchRemoveContactsRequest = v.pipe(
  v.strictObject({
    ids: v.optional(
      v.pipe(
        v.array(v.pipe(v.string(), v.uuid('must be a contact id.'))),
        v.minLength(1, 'must hold 1 to 1000 ids.'),
        v.maxLength(1000, 'must hold 1 to 1000 ids.'),
      ),
    ),
    emails: v.optional(
      v.pipe(
        v.array(Email),
        v.minLength(1, 'must hold 1 to 1000 addresses.'),
        v.maxLength(1000, 'must hold 1 to 1000 addresses.'),
      ),
    ),
    erase: v.optional(v.boolean('must be true or false.')),
  }),
  v.check((b) => !!(b.ids || b.emails), 'Give `ids` or `emails` (1 to 1000).'),
  v.check((b) => (b.ids?.length ?? 0) + (b.emails?.length ?? 0) <= 1000, 'At most 1000 contacts per call.'),
);

/** POST /contacts/batch: 1 to 1000 create-contact items (each validated on its own). */
export const BatchCreateContactsRequest = v.pipe(
  v.array(v.unknown(), 'The body must be a JSON array of contacts.'),
  v.minLength(1, 'The batch must hold 1 to 1000 contacts.'),
  v.maxLength(1000, 'The batch must hold 1 to 1000 contacts.'),
);
export const BatchCreateQuery = v.object({
  on_conflict: v.optional(v.picklist(['upsert', 'skip'], '`on_conflict` must be `upsert` or `skip`.')),
});

/** POST /contact-properties */
export const CreateContactPropertyRequest = v.pipe(
  v.strictObject({
    key: v.pipe(
      v.string('is required.'),
      v.minLength(1, 'must be 1 to 200 characters.'),
      v.maxLength(200, 'must be 1 to 200 characters.'),
    ),
    type: v.picklist(['string', 'number'], 'must be `string` or `number`.'),
    fallback_value: v.optional(PropertyValue),
  }),
  v.check(
    (p) => p.fallback_value === undefined || p.fallback_value === null || typeof p.fallback_value === p.type,
    '`fallback_value` must match the property `type`.',
  ),
);
/** PATCH /contact-properties/{id}: only the fallback value may change. */
export const UpdateContactPropertyRequest = v.strictObject({
  fallback_value: PropertyValue,
  key: v.optional(v.custom<never>(() => false, 'a property key cannot change; create a new property.')),
  type: v.optional(v.custom<never>(() => false, 'a property type cannot change; create a new property.')),
});

/** POST /segments and /audiences */
export const CreateSegmentRequest = v.strictObject({
  name: v.pipe(v.string('is required.'), v.minLength(1, 'is required.'), v.maxLength(256)),
  filter: v.optional(
    v.custom<never>(() => false, 'segment filters are not supported; add contacts to the segment instead.'),
  ),
  audience_id: v.optional(v.string()),
});
export const UpdateSegmentRequest = v.strictObject({
  name: v.pipe(v.string('is required.'), v.minLength(1), v.maxLength(256)),
});

const Subscription = v.picklist(SUBSCRIPTIONS);
/** A topic as a contact sees it: the effective subscription, and whether the contact chose it. */
export const ContactTopic = v.object({
  id: Id,
  name: v.string(),
  description: v.nullable(v.string()),
  subscription: Subscription,
  explicit: v.boolean(),
  visibility: v.picklist(TOPIC_VISIBILITIES),
});
/** A contact as lists show it; `properties` and `topics` when `include` asks. */
export const ContactListItem = v.object({
  object: v.literal('contact'),
  id: Id,
  email: v.string(),
  first_name: v.nullable(v.string()),
  last_name: v.nullable(v.string()),
  created_at: Timestamp,
  unsubscribed: v.boolean(),
  properties: v.optional(
    v.record(
      v.string(),
      v.object({ type: v.picklist(['string', 'number']), value: v.nullable(v.union([v.string(), v.number()])) }),
    ),
  ),
  topics: v.optional(v.array(ContactTopic)),
});
/** GET /contacts/{id or email}: always with its properties. */
export const ContactObject = v.object({
  ...ContactListItem.entries,
  properties: v.nonOptional(ContactListItem.entries.properties),
});
/** DELETE /contacts/{id or email}: the reference's `id` and the SDK's `contact`. */
export const DeletedContact = v.object({ ...Deleted('contact').entries, contact: Id });
/** POST /contacts/{id}/segments/{segment_id} */
export const ContactSegmentLink = v.object({
  object: v.literal('contact_segment'),
  id: Id,
  contact_id: Id,
  segment_id: Id,
});
/** DELETE /contacts/{id}/segments/{segment_id}: the reference's fields and the SDK's `audienceId`. */
export const ContactSegmentUnlinked = v.object({
  ...ContactSegmentLink.entries,
  audienceId: Id,
  deleted: v.literal(true),
});
/** PATCH /contacts/{id}/topics */
export const ContactTopicsUpdated = v.object({
  object: v.literal('contact_topics'),
  id: Id,
  contact_id: Id,
  topics: v.array(v.object({ id: Id, subscription: Subscription })),
});
/** POST /contacts/{id}/preferences-link */
export const PreferencesLink = v.object({
  object: v.literal('preferences_link'),
  contact: Id,
  url: v.pipe(v.string(), v.url()),
});
const Index = v.pipe(v.number(), v.integer(), v.minValue(0));
const ItemErrors = v.array(v.object({ index: Index, message: v.string() }));
/** POST /contacts/batch: one row per item in request order, the counts, and `errors` by index. */
export const BatchCreatedContacts = v.object({
  object: v.literal('list'),
  data: v.array(
    v.object({
      object: v.literal('contact'),
      index: Index,
      id: v.nullable(Id),
      status: v.picklist(['created', 'updated', 'skipped']),
    }),
  ),
  counts: v.object({ created: v.number(), updated: v.number(), skipped: v.number(), failed: v.number() }),
  errors: v.optional(ItemErrors),
});
/** POST /contacts/batch/get: the contacts found, and `missing` naming the request indexes not found. */
export const BatchGotContacts = v.object({
  object: v.literal('list'),
  data: v.array(ContactListItem),
  missing: v.array(v.object({ index: Index, id: v.nullable(v.string()), email: v.nullable(v.string()) })),
});
/** POST /contacts/batch/remove */
export const BatchRemovedContacts = v.object({ object: v.literal('list'), data: v.array(DeletedContact) });

/** A segment (`object: 'segment'`) and its deprecated links, null here. */
export const SegmentRow = v.object({
  id: Id,
  name: v.string(),
  created_at: Timestamp,
  audience_id: v.null(),
  filter: v.null(),
});
export const SegmentObject = v.object({ object: v.literal('segment'), ...SegmentRow.entries });
export const AudienceObject = v.object({
  object: v.literal('audience'),
  id: Id,
  name: v.string(),
  created_at: Timestamp,
});
/** POST /segments and /audiences */
export const CreatedSegment = v.object({ object: v.picklist(['segment', 'audience']), id: Id, name: v.string() });
/** GET /segments/{id}, and GET /audiences/{id} (the older name answers as an audience). */
export const SegmentOrAudience = v.union([SegmentObject, AudienceObject]);
/** DELETE /segments/{id} and /audiences/{id} */
export const DeletedSegment = v.object({ ...Deleted('segment').entries, object: v.picklist(['segment', 'audience']) });
export const SegmentList = ListOf(SegmentRow);

/** A contact property. */
export const ContactPropertyObject = v.object({
  object: v.literal('contact_property'),
  id: Id,
  key: v.string(),
  type: v.picklist(['string', 'number']),
  fallback_value: v.nullable(v.union([v.string(), v.number()])),
  created_at: Timestamp,
});
