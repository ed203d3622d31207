/** A contact's choice for a topic, and a topic's default for contacts who made none. */
export const SUBSCRIPTIONS = ['opt_in', 'opt_out'] as const;
export type Subscription = (typeof SUBSCRIPTIONS)[number];

/** Whether the preference page shows a topic to contacts. */
export const TOPIC_VISIBILITIES = ['public', 'private'] as const;
export type TopicVisibility = (typeof TOPIC_VISIBILITIES)[number];
