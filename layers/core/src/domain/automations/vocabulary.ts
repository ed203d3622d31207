/** The names the automations API speaks, each listed once (the schemas and the domain read them). */

/** The types a custom event's `schema` gives its payload's fields. */
export const EVENT_FIELD_TYPES = ['string', 'number', 'boolean', 'date'] as const;
export type EventFieldType = (typeof EVENT_FIELD_TYPES)[number];

/** Event names starting with this are the reference's own (its system events); a team's may not. */
export const RESERVED_EVENT_PREFIX = 'resend:';
