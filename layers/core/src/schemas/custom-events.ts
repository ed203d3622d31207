import * as v from 'valibot';
import { Id, Timestamp } from './common.ts';
import { MAX_EVENT_NAME_LENGTH, MAX_EVENT_PAYLOAD_BYTES, MAX_EVENT_SCHEMA_FIELDS } from '../limits.ts';
import { isUuid } from '../ports/ids.ts';
import { validAddress } from '../domain/emails/rules/addresses.ts';
import { EVENT_FIELD_TYPES, RESERVED_EVENT_PREFIX } from '../domain/automations/vocabulary.ts';

/**
 * A custom event's name: 1 to MAX_EVENT_NAME_LENGTH characters, not the reference's reserved
 * `resend:` prefix, and not a UUID (a path names an event by id or by name).
 */
export const EventName = v.pipe(
  v.string('is required: the name of the event, such as `user.signed_up`.'),
  v.minLength(1, 'is required: the name of the event, such as `user.signed_up`.'),
  v.maxLength(MAX_EVENT_NAME_LENGTH, `must be at most ${MAX_EVENT_NAME_LENGTH} characters.`),
  v.check(
    (name) => !name.startsWith(RESERVED_EVENT_PREFIX),
    `may not start with \`${RESERVED_EVENT_PREFIX}\` (reserved).`,
  ),
  v.check((name) => !isUuid(name), 'may not be a UUID: paths name an event by its id or its name.'),
  v.check((name) => !/[\s/]/.test(name), 'may not contain spaces or slashes.'),
  v.check((name) => name !== 'send', 'may not be `send` (the path /events/send sends events).'),
);

/** A payload schema: a flat map of field name to type, or null for none. */
const EventSchemaMap = v.nullable(
  v.pipe(
    v.record(
      v.pipe(
        v.string(),
        v.minLength(1, 'field names may not be empty.'),
        v.maxLength(100, 'field names are at most 100 characters.'),
      ),
      v.picklist(EVENT_FIELD_TYPES, `each field's type must be one of ${EVENT_FIELD_TYPES.join(', ')}.`),
      'must be an object of field name to type (string, number, boolean or date), or null.',
    ),
    v.check(
      (map) => Object.keys(map).length <= MAX_EVENT_SCHEMA_FIELDS,
      `may define at most ${MAX_EVENT_SCHEMA_FIELDS} fields.`,
    ),
  ),
);

/** POST /events */
export const CreateEventRequest = v.strictObject({
  name: EventName,
  schema: v.optional(EventSchemaMap),
});

/** PATCH /events/{identifier} */
export const UpdateEventRequest = v.strictObject({
  schema: EventSchemaMap,
});

/** POST /events/send: the event's name, exactly one of contact_id or email, and an optional payload. */
export const SendEventRequest = v.pipe(
  v.strictObject({
    event: v.pipe(
      v.string('is required: the name of the event to send.'),
      v.minLength(1, 'is required.'),
      v.maxLength(MAX_EVENT_NAME_LENGTH, `must be at most ${MAX_EVENT_NAME_LENGTH} characters.`),
    ),
    contact_id: v.optional(v.pipe(v.string(), v.uuid('must be the id of one of your contacts.'))),
    email: v.optional(
      v.pipe(v.string(), v.trim(), v.check(validAddress, 'must be an email address such as jane@example.com.')),
    ),
    payload: v.optional(
      v.pipe(
        v.record(v.string(), v.unknown(), 'must be an object of key/value pairs.'),
        v.check(
          (p) => new TextEncoder().encode(JSON.stringify(p)).length <= MAX_EVENT_PAYLOAD_BYTES,
          `must be at most ${MAX_EVENT_PAYLOAD_BYTES} bytes as JSON.`,
        ),
      ),
    ),
  }),
  v.check(
    (b) => (b.contact_id === undefined) !== (b.email === undefined),
    'Give exactly one of `contact_id` or `email`: the contact the event happened to.',
  ),
);

/** An event definition as lists show it. */
export const EventRow = v.object({
  id: Id,
  name: v.string(),
  schema: v.nullable(v.record(v.string(), v.picklist(EVENT_FIELD_TYPES))),
  created_at: Timestamp,
  updated_at: v.nullable(Timestamp),
});
/** GET /events/{identifier} */
export const EventObject = v.object({ object: v.literal('event'), ...EventRow.entries });
/** POST /events/send's answer (202). */
export const SentEvent = v.object({ object: v.literal('event'), event: v.string() });
