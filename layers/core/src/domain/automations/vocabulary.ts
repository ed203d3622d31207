/** The names the automations API speaks, each listed once (the schemas and the domain read them). */

/** The types a custom event's `schema` gives its payload's fields. */
export const EVENT_FIELD_TYPES = ['string', 'number', 'boolean', 'date'] as const;
export type EventFieldType = (typeof EVENT_FIELD_TYPES)[number];

/** Event names starting with this are the reference's own (its system events); a team's may not. */
export const RESERVED_EVENT_PREFIX = 'resend:';

/** An automation's status: only an enabled one starts runs. */
export const AUTOMATION_STATUSES = ['enabled', 'disabled'] as const;
export type AutomationStatus = (typeof AUTOMATION_STATUSES)[number];

/** A step's type. */
export const STEP_TYPES = [
  'trigger',
  'send_email',
  'delay',
  'wait_for_event',
  'condition',
  'contact_update',
  'contact_delete',
  'add_to_segment',
] as const;
export type StepType = (typeof STEP_TYPES)[number];

/** A connection's type. */
export const CONNECTION_TYPES = ['default', 'condition_met', 'condition_not_met', 'timeout', 'event_received'] as const;
export type ConnectionType = (typeof CONNECTION_TYPES)[number];

/** A run's status, and a run step's. */
export const RUN_STATUSES = ['running', 'completed', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const RUN_STEP_STATUSES = ['pending', 'running', 'completed', 'failed', 'skipped', 'waiting'] as const;
export type RunStepStatus = (typeof RUN_STEP_STATUSES)[number];
