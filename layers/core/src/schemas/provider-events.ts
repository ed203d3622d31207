import * as v from 'valibot';
import { MAX_PATH_ID_BYTES } from '../limits.ts';

const Text = (what: string) => v.string(`must be a string (${what}).`);
const Address = v.pipe(
  v.string('must be an address.'),
  v.maxLength(MAX_PATH_ID_BYTES, `must be at most ${MAX_PATH_ID_BYTES} characters.`),
);

/**
 * The SNS HTTP(S) envelope (other fields SNS sends, such as the signature's, are kept for its
 * verification): a notification carries its `Message`; a subscription confirmation its https
 * `SubscribeURL`.
 */
export const SnsEnvelope = v.variant(
  'Type',
  [
    v.looseObject({ Type: v.literal('Notification'), Message: Text('the SES event as JSON') }),
    v.looseObject({
      Type: v.literal('SubscriptionConfirmation'),
      Message: v.optional(v.string()),
      SubscribeURL: v.pipe(Text('the https URL that confirms the subscription'), v.url('must be a URL.')),
    }),
    v.looseObject({ Type: v.literal('UnsubscribeConfirmation'), Message: v.optional(v.string()) }),
  ],
  '`Type` must be `Notification`, `SubscriptionConfirmation` or `UnsubscribeConfirmation`.',
);
export type SnsEnvelope = v.InferOutput<typeof SnsEnvelope>;

const Recipients = v.optional(
  v.array(
    v.looseObject({ emailAddress: Address, diagnosticCode: v.optional(v.string()) }),
    'must be an array of recipients.',
  ),
);

/** An SES event notification (the parts we read; the rest is ignored). */
export const SesEventMessage = v.looseObject({
  eventType: v.pipe(Text('the SES event type'), v.maxLength(64)),
  mail: v.looseObject(
    {
      messageId: Text('the provider message id'),
      tags: v.optional(v.record(v.string(), v.array(v.string()), 'must map tag names to arrays of strings.')),
    },
    'is required: the SES `mail` object.',
  ),
  bounce: v.optional(
    v.looseObject({
      bounceType: Text('the bounce type'),
      bounceSubType: Text('the bounce sub-type'),
      bouncedRecipients: Recipients,
    }),
  ),
  complaint: v.optional(
    v.looseObject({ complainedRecipients: Recipients, complaintFeedbackType: v.optional(v.string()) }),
  ),
  deliveryDelay: v.optional(v.looseObject({ delayType: v.optional(v.string()) })),
  reject: v.optional(v.looseObject({ reason: v.optional(v.string()) })),
  failure: v.optional(v.looseObject({ errorMessage: v.optional(v.string()) })),
  open: v.optional(
    v.looseObject({
      ipAddress: v.optional(v.string()),
      userAgent: v.optional(v.string()),
      timestamp: v.optional(v.string()),
    }),
  ),
  click: v.optional(
    v.looseObject({
      ipAddress: v.optional(v.string()),
      userAgent: v.optional(v.string()),
      timestamp: v.optional(v.string()),
      link: v.optional(v.string()),
    }),
  ),
});
