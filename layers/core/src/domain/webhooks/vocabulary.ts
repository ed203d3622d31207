/** Whether an endpoint receives events. */
export const WEBHOOK_STATUSES = ['enabled', 'disabled'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/** Where one delivery of an event to an endpoint stands (the SDK's WebhookEventLogStatus). */
export const DELIVERY_STATUSES = ['pending', 'attempting', 'success', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
