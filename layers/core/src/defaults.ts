import { DEFAULT_PROVIDER_RATE_PER_SECOND } from './limits.ts';

/**
 * The deployment's settings when nothing names them: read by the CDK stack (lib/config.ts, for a
 * context key left unset) and by the runtime (runtime/config.ts, for an environment variable left
 * unset), so a default is stated once. cdk.json sets none of these.
 */
export const DEFAULTS = {
  /** The one region a stack delivers from. */
  deliveryRegion: 'us-east-1',
  /** Cloud mode (plans, caps and quotas) is off: a self-hosted deployment applies none. */
  cloud: false,
  /** SES's starting quota, per second. */
  providerRatePerSecond: DEFAULT_PROVIDER_RATE_PER_SECOND,
  /** Requests per API key and minute (spec §8). */
  apiRateLimitPerMinute: 600,
  /** The sender of the service's own mail (sign-in links, invitations, notices). */
  systemSender: 'mailstack <no-reply@mailstack.localhost>',
  /** The SMTP relay: off (it costs a load balancer and tasks around the clock), its certificate's secret, and its task counts. */
  smtpRelay: false,
  smtpTlsSecretName: 'mailstack/smtp-tls',
  smtpDesiredCount: 2,
  smtpMaxCount: 10,
  /**
   * The team deliverability guardrail's lines (fractions of the mail sent over its 7-day window),
   * below SES's own: SES reviews an account at a 5% bounce or 0.1% complaint rate and may pause it
   * at 10% or 0.5%. A team is warned at 2% (SES's advice: keep bounces under 2%) or 0.05%, and
   * paused at 4% or 0.08%, before SES would review the account every team sends from.
   */
  bounceRateWarning: 0.02,
  bounceRatePause: 0.04,
  complaintRateWarning: 0.0005,
  complaintRatePause: 0.0008,
  /** Emails a team must have sent over the window before its rates count (one bounce of three emails pauses nobody). */
  deliverabilityMinSent: 100,
} as const;
