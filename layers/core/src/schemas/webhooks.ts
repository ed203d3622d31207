import * as v from 'valibot';
import { Id, Timestamp } from './common.ts';
import { MAX_WEBHOOK_OVERLAP_HOURS } from '../limits.ts';
import { DELIVERY_STATUSES, WEBHOOK_STATUSES } from '../domain/webhooks/vocabulary.ts';

const Endpoint = v.pipe(
  v.string('must be a URL string.'),
  v.minLength(1, 'is required.'),
  v.maxLength(2048, 'must be at most 2048 characters.'),
);
const Events = v.array(
  v.pipe(v.string('must be an event type string.'), v.maxLength(100)),
  'must be an array of event types.',
);
const Secret = v.pipe(
  v.string('must be a string: whsec_ followed by base64.'),
  v.maxLength(200, 'must be at most 200 characters.'),
);

/** POST /webhooks */
export const CreateWebhookRequest = v.strictObject({
  endpoint: Endpoint,
  events: Events,
  signing_secret: v.optional(Secret),
});

/** PATCH /webhooks/{id} */
export const UpdateWebhookRequest = v.strictObject({
  endpoint: v.optional(Endpoint),
  events: v.optional(Events),
  status: v.optional(v.picklist(WEBHOOK_STATUSES, 'must be `enabled` or `disabled`.')),
});

const OVERLAP_MESSAGE = `must be a whole number of hours from 0 to ${MAX_WEBHOOK_OVERLAP_HOURS}.`;

/** POST /webhooks/{id}/rotate (the SDK's signing-secret/rotate sends no body) */
export const RotateWebhookRequest = v.optional(
  v.strictObject({
    signing_secret: v.optional(Secret),
    overlap_hours: v.optional(
      v.pipe(
        v.number(OVERLAP_MESSAGE),
        v.integer(OVERLAP_MESSAGE),
        v.minValue(0, OVERLAP_MESSAGE),
        v.maxValue(MAX_WEBHOOK_OVERLAP_HOURS, OVERLAP_MESSAGE),
      ),
    ),
  }),
  {},
);

/** Paths naming one event of an endpoint's delivery log. */
export const WebhookEventParams = v.object({
  id: v.pipe(v.string(), v.minLength(1)),
  event_id: v.pipe(v.string(), v.minLength(1)),
});

const Status = v.picklist(WEBHOOK_STATUSES);
const EventTypes = v.nullable(v.array(v.string()));
const LogStatus = v.picklist(DELIVERY_STATUSES);

/** POST /webhooks (the SDK's CreateWebhookResponseSuccess) */
export const CreatedWebhook = v.object({ object: v.literal('webhook'), id: Id, signing_secret: v.string() });

/** A webhook as lists show it: no secrets. */
export const WebhookRow = v.object({
  id: Id,
  endpoint: v.string(),
  events: EventTypes,
  status: Status,
  created_at: Timestamp,
});

/** GET /webhooks/{id}: the secret, and when the previous one stops signing (null without an overlap). */
export const WebhookObject = v.object({
  object: v.literal('webhook'),
  ...WebhookRow.entries,
  signing_secret: v.string(),
  previous_secret_expires_at: v.nullable(Timestamp),
});

/** POST /webhooks/{id}/rotate and /signing-secret/rotate */
export const RotatedWebhook = v.object({
  object: v.literal('webhook'),
  id: Id,
  signing_secret: v.string(),
  previous_secret_expires_at: v.nullable(Timestamp),
});

/** A row of an endpoint's delivery log (the SDK's WebhookEventLog). */
export const WebhookEventRow = v.object({ id: Id, type: v.string(), created_at: Timestamp, status: LogStatus });

/** GET /webhooks/{id}/events/{event_id}: the exact envelope sent, and the next try while pending. */
export const WebhookEventObject = v.object({
  object: v.literal('webhook_event'),
  ...WebhookEventRow.entries,
  next_attempt_at: v.nullable(Timestamp),
  payload: v.object({ type: v.string(), created_at: Timestamp, data: v.record(v.string(), v.unknown()) }),
});

/** One request made for a delivery (status 0 when no response came). */
export const WebhookEventAttempt = v.object({
  id: Id,
  http_status_code: v.pipe(v.number(), v.integer()),
  response: v.string(),
  sent_at: Timestamp,
});
