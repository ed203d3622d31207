/**
 * The service's fixed limits and defaults, each stated once: the HTTP hosts, the domain, the
 * runtime configuration and the CDK stack read them from here.
 */

/** The largest request body accepted (spec §8: 25 MiB, attachments included). */
export const MAX_BODY_BYTES = 25 * 1024 * 1024;

/** The refusal text for a body past MAX_BODY_BYTES (both hosts answer with it). */
export const BODY_TOO_LARGE_MESSAGE = `The request body is larger than 25 MiB (${MAX_BODY_BYTES} bytes), attachments included.`;

/** At most this many recipients across to, cc and bcc (spec §8). */
export const MAX_RECIPIENTS = 50;

/** The provider's send rate when the deployment names none (SES's starting quota), per second. */
export const DEFAULT_PROVIDER_RATE_PER_SECOND = 14;

/** How long per-day counters (usage, deliverability) are kept after their day: 40 days. */
export const DAILY_COUNTER_RETENTION_SECONDS = 40 * 86_400;
