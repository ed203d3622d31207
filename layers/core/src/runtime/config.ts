import * as v from 'valibot';
import { canonicalHostName } from '../ports/dns.ts';
import { LOOKUP_STALENESS_MS } from '../limits.ts';
import { DEFAULTS } from '../defaults.ts';

const Bool = v.pipe(
  v.optional(v.picklist(['true', 'false', '1', '0', '']), 'false'),
  v.transform((s) => s === 'true' || s === '1'),
);
const Int = (fallback: number) =>
  v.pipe(v.optional(v.string(), String(fallback)), v.transform(Number), v.integer(), v.minValue(0));
const Url = v.optional(v.pipe(v.string(), v.url()));
/** A fraction above 0 and under 1 (a rate: `0.04` is 4%). */
const Fraction = (fallback: number) =>
  v.pipe(v.optional(v.string(), String(fallback)), v.transform(Number), v.number(), v.gtValue(0), v.ltValue(1));

/** Every setting the runtime reads from the environment, validated once at cold start. */
export const Config = v.object({
  TABLE_NAME: v.pipe(v.string(), v.minLength(1)),
  AWS_REGION: v.optional(v.string(), 'us-east-1'),
  /** Endpoint overrides: set by the local host, absent on AWS. */
  DYNAMODB_ENDPOINT: Url,
  SQS_ENDPOINT: Url,
  SES_ENDPOINT: Url,
  S3_ENDPOINT: Url,
  /** The content store's bucket (bodies and attachments past CONTENT_INLINE_MAX_BYTES); only the functions that need it have it. */
  CONTENT_BUCKET: v.optional(v.string(), ''),
  /** `local` stores due items in the table for the local timer loop; `aws` uses EventBridge Scheduler. */
  SCHEDULER_MODE: v.optional(v.picklist(['aws', 'local']), 'aws'),
  /**
   * When inside its minute a local schedule fires (adapters/aws/table-scheduler.ts): `anywhere`
   * (at random, as EventBridge Scheduler's 60-second precision allows), or pinned to the minute's
   * `minute-start` or `minute-end` (the earliest and the latest AWS may fire). Local host only.
   */
  LOCAL_SCHEDULER_FIRES: v.optional(v.picklist(['anywhere', 'minute-start', 'minute-end']), 'anywhere'),
  SCHEDULER_GROUP: v.optional(v.string(), 'default'),
  SCHEDULER_ROLE_ARN: v.optional(v.string(), ''),
  /** Queue URLs by role. */
  SEND_QUEUE_URL: v.optional(v.string(), ''),
  /** Send jobs coming back later (booked ahead, retried); without it they go back to SEND_QUEUE_URL. */
  SEND_LATER_QUEUE_URL: v.optional(v.string(), ''),
  EVENTS_QUEUE_URL: v.optional(v.string(), ''),
  WEBHOOK_QUEUE_URL: v.optional(v.string(), ''),
  ERASE_QUEUE_URL: v.optional(v.string(), ''),
  BROADCAST_QUEUE_URL: v.optional(v.string(), ''),
  FANOUT_QUEUE_URL: v.optional(v.string(), ''),
  REQUEST_LOGS_QUEUE_URL: v.optional(v.string(), ''),
  /** Turns request logs (GET /logs) off: no request is recorded (the bench compares the accept path with and without). */
  REQUEST_LOGS_DISABLED: Bool,
  AUTOMATION_QUEUE_URL: v.optional(v.string(), ''),
  SES_CONFIGURATION_SET: v.optional(v.string(), ''),
  /**
   * The deployment's stack name (mailstack:stackName): every SES identity it creates is tagged
   * with it, and only identities tagged so are ever deleted (stacks may share an account).
   */
  STACK_NAME: v.optional(v.string(), 'Mailstack'),
  /**
   * Each team sends as its own SES tenant, with its own configuration set (named from
   * SES_CONFIGURATION_SET and the team id), so SES keeps and acts on each team's reputation apart
   * (`mailstack:sesTenants`, off by default).
   */
  SES_TENANTS: Bool,
  /**
   * The stack's inbound receipt rule set and rule (SES receiving): the domain use cases keep the
   * rule's recipients to the domains the deployment's teams hold. Unset: no inbound rule to keep.
   */
  INBOUND_RULE_SET_NAME: v.optional(v.string(), ''),
  INBOUND_RULE_NAME: v.optional(v.string(), ''),
  /** Cloud mode applies plans, caps and quotas; self-hosted (default) applies none. */
  CLOUD: Bool,
  /** Turns the mailbox agent API and the mailbox MCP endpoint off (they answer 404); mail to mailboxes is still received. */
  MAILBOX_AGENT_DISABLED: Bool,
  /** Delivery regions this deployment serves; the first is the default. */
  DELIVERY_REGIONS: v.pipe(
    v.optional(v.string(), DEFAULTS.deliveryRegion),
    v.transform((s) =>
      s
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean),
    ),
  ),
  API_RATE_LIMIT_PER_MINUTE: Int(DEFAULTS.apiRateLimitPerMinute),
  TEAM_RATE_LIMIT_PER_MINUTE: Int(3000),
  FAILED_AUTH_LIMIT_PER_MINUTE: Int(20),
  /** Calls to the hosted MCP server per signed-in person and minute (spec §8), apart from the key windows. */
  MCP_RATE_LIMIT_PER_MINUTE: Int(600),
  /** The ceiling of the send line's rate (`mailstack:providerRatePerSecond`); the rate itself is SES's maximum send rate (GetAccount), when lower. */
  PROVIDER_RATE_PER_SECOND: Int(DEFAULTS.providerRatePerSecond),
  /**
   * The team guardrail's lines over its 7-day window (fractions; DEFAULTS gives them beside SES's
   * own): past a warning line deliverability.warning, past a pause line the team's sends are
   * refused with sending_paused. Rates count from DELIVERABILITY_MIN_SENT emails in the window.
   */
  BOUNCE_RATE_WARNING: Fraction(DEFAULTS.bounceRateWarning),
  BOUNCE_RATE_PAUSE: Fraction(DEFAULTS.bounceRatePause),
  COMPLAINT_RATE_WARNING: Fraction(DEFAULTS.complaintRateWarning),
  COMPLAINT_RATE_PAUSE: Fraction(DEFAULTS.complaintRatePause),
  DELIVERABILITY_MIN_SENT: Int(DEFAULTS.deliverabilityMinSent),
  /** Seconds between two readings of the provider account (GetAccount: its maximum send rate and sending state). */
  PROVIDER_ACCOUNT_REFRESH_SECONDS: Int(300),
  /**
   * The most two send workers' clocks may differ by, in milliseconds: the send line's call log
   * widens every call's second by it (table/send-slots.ts), so the provider's rate holds in every
   * sliding second while the clocks differ by no more. Lambda's clocks are kept by NTP (Amazon Time
   * Sync) to about a millisecond; a larger value costs the line that share of its rate (docs/aws.md).
   */
  PROVIDER_CLOCK_SKEW_MS: Int(1),
  /** Seconds a parked send line (SES paused, disabled, quota spent, suspended, misconfigured) waits before the account is checked again. */
  PROVIDER_PARK_CHECK_SECONDS: Int(60),
  /** How long teams and sending domains are served from a process's copy, and an API key's team is known from it (limits.ts LOOKUP_STALENESS_MS); 0 reads every time. */
  LOOKUP_CACHE_MS: Int(LOOKUP_STALENESS_MS),
  /** The SNS topic SES publishes its events to; a provider event from any other topic is refused. */
  SES_EVENTS_TOPIC_ARN: v.optional(v.string(), ''),
  PROVIDER_EVENTS_QUEUE_URL: v.optional(v.string(), ''),
  /**
   * A test switch of the local host: reads through a global secondary index leave out what this
   * process wrote in the last this many milliseconds, as an eventually consistent GSI read on AWS
   * may (adapters/aws/lagging-index-store.ts); 0, the default, reads the engine's index as it is.
   */
  INDEX_LAG_MS: Int(0),
  /** Seconds an email may sit before the provider before the sweeper re-queues it. */
  SWEEP_AFTER_SECONDS: Int(120),
  /**
   * The host name each domain's tracking subdomain points at with a CNAME: an https endpoint
   * that serves the tracking routes (/t/o/…, /t/c/…) for every tracking host, such as a CDN
   * distribution or API custom domain in front of the tracking function. Set, a domain with open
   * or click tracking lists a Tracking CNAME record, and once that record verifies its tracking
   * links use https://<tracking_subdomain>.<domain>. Empty (the default, and the local host): no
   * Tracking record, and tracking links use PUBLIC_BASE_URL.
   */
  TRACKING_CNAME_TARGET: v.optional(v.pipe(v.string(), v.transform(canonicalHostName)), ''),
  /** The public address of the API, for links such as unsubscribe pages. */
  PUBLIC_BASE_URL: v.optional(v.string(), 'http://127.0.0.1:3000'),
  APP_URL: v.optional(v.string(), 'http://127.0.0.1:3000'),
  /** The dashboard's own origin (sign-in links, invitations, notices point there). */
  DASHBOARD_URL: v.optional(v.string(), 'http://127.0.0.1:3001'),
  /**
   * The sender of all the service's own mail (invitations, sign-in links, password resets, the
   * owner notices of webhook endpoints failing, disabled or backlogged).
   */
  SYSTEM_SENDER: v.optional(v.string(), DEFAULTS.systemSender),
  /**
   * The team that mail goes out as (on AWS: one with a verified domain for SYSTEM_SENDER). Empty:
   * the service makes its own system team on first use (locally its sender domain verifies itself).
   */
  SYSTEM_TEAM_ID: v.optional(v.string(), ''),
  /**
   * Locally: the link-signing key, or a keyring `{"current":"k2","k1":"...","k2":"..."}`. No
   * default: the local host generates one on its first start (kept with its data); a function
   * that signs or checks a link without a key fails rather than use a value anyone could know.
   */
  TOKEN_SECRET: v.optional(v.pipe(v.string(), v.minLength(1))),
  /** On AWS: the Secrets Manager secret holding the link-signing keyring, read at run time (only the functions that sign or check links have it). */
  LINK_SECRET_ARN: v.optional(v.string(), ''),
  /** Days an email and its events are kept before DynamoDB TTL removes them; 0: kept (domain/emails/retention.ts). */
  EMAIL_RETENTION_DAYS: Int(0),
  /** Days a webhook delivery row and its attempts are kept before DynamoDB TTL purges them. */
  WEBHOOK_DELIVERY_RETENTION_DAYS: Int(30),
  /**
   * Which webhook targets are allowed: `public` (https to public addresses only, checked after
   * DNS resolution; the cloud default) or `any` (http and loopback too: the local host).
   */
  WEBHOOK_TARGETS: v.optional(v.picklist(['public', 'any']), 'public'),
  /** Requests per second to one endpoint (spec §8: 50), across every worker. */
  WEBHOOK_RATE_PER_SECOND: Int(50),
  /** Seconds an OAuth access token of the hosted MCP server works (short-lived: an hour). */
  OAUTH_ACCESS_TOKEN_SECONDS: Int(3600),
  /** Seconds an OAuth refresh token works unused (each use rotates it and starts a new lifetime). */
  OAUTH_REFRESH_TOKEN_SECONDS: Int(30 * 86_400),
  LOG_LEVEL: v.optional(v.string(), 'INFO'),
  /** SMTP relay: listening port and address (container: all interfaces; local host: loopback). */
  SMTP_PORT: Int(2587),
  SMTP_LISTEN_ADDRESS: v.optional(v.string(), '0.0.0.0'),
  /** The name the relay greets with (the DNS name clients connect to). */
  SMTP_HOSTNAME: v.optional(v.string(), 'localhost'),
  /** Open sessions allowed from one client address. */
  SMTP_MAX_CONNECTIONS_PER_IP: Int(20),
  /** A session with no command for this long is closed (421 4.4.2). */
  SMTP_IDLE_TIMEOUT_SECONDS: Int(300),
  /** A session is closed after this long whatever it does (421 4.4.2); clients reconnect. */
  SMTP_SESSION_TIMEOUT_SECONDS: Int(1800),
  /** The relay container's health endpoint (GET /health), checked by the load balancer. */
  SMTP_HEALTH_PORT: Int(8025),
  /** CloudWatch namespace and dimension value the relay container reports its open sessions under (auto-scaling). */
  SMTP_METRICS_NAMESPACE: v.optional(v.string(), ''),
  SMTP_METRICS_SERVICE: v.optional(v.string(), ''),
  /** PEM certificate chain and private key for STARTTLS (on AWS injected from Secrets Manager). */
  SMTP_TLS_CERT: v.optional(v.string(), ''),
  SMTP_TLS_KEY: v.optional(v.string(), ''),
});

/** The validated runtime configuration. */
export type Config = v.InferOutput<typeof Config>;

/** Reads and validates the environment; a bad setting fails fast with the setting's name. */
export const readConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const result = v.safeParse(Config, env);
  if (!result.success) {
    const detail = result.issues.map((i) => `${v.getDotPath(i) ?? '?'}: ${i.message}`).join('; ');
    throw new Error(`invalid configuration: ${detail}`);
  }
  return result.output;
};
