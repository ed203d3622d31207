import { DEFAULTS } from '@mailstack/core/defaults';
import { canonicalHostName } from '@mailstack/core/ports/dns';
import { readQueueVisibility } from '../functions/workers.ts';
import {
  DEFAULT_SEND_CONCURRENCY_CEILING,
  DEFAULT_SEND_MS_PER_EMAIL,
  EVENT_SOURCE_CONCURRENCY,
} from './send-capacity.ts';

/** Deployment settings of the stack, read from CDK context (cdk.json or `-c key=value`). */
export interface StackConfig {
  /** Delivery regions this deployment serves: exactly one today, the region the stack deploys to. */
  readonly deliveryRegions: readonly string[];
  /** Cloud mode: plans, caps and quotas apply. */
  readonly cloud: boolean;
  /** The provider's send quota, emails per second. */
  readonly providerRatePerSecond: number;
  /** Requests per minute per API key. */
  readonly apiRateLimitPerMinute: number;
  /** The sender of the service's own mail (invitations, sign-in links, owner notices); its domain must be one SES can send from. */
  readonly systemSender: string;
  /** The team the service's own mail goes out as (one with a verified domain for the sender); empty: the service makes its own. */
  readonly systemTeamId: string;
  /**
   * The SMTP relay: whether the stack runs it (opt-in: off, the stack creates no VPC, load
   * balancer, cluster or tasks, nothing that costs by the hour), the Secrets Manager secret with
   * its TLS certificate and key, its public name, and its task counts.
   */
  readonly smtp: {
    readonly enabled: boolean;
    readonly tlsSecretName: string;
    readonly hostname: string | undefined;
    readonly desiredCount: number;
    readonly maxCount: number;
  };
  /**
   * Invocations at once of each worker that sends through SES (the send and broadcast workers; SQS
   * event source maxConcurrency, 2-1000), so a backlog cannot take the account's Lambda concurrency
   * from the API: derived from the rate and the time a send takes (lib/send-capacity.ts) up to
   * `ceiling`, unless `override` (`mailstack:sendConcurrency`) names the figure.
   */
  readonly sendCapacity: {
    readonly override?: number;
    readonly ceiling: number;
    readonly msPerEmail: number;
  };
  /**
   * Each team sends as its own SES tenant, with its own configuration set, so SES keeps and acts on
   * each team's reputation apart (opt-in: see docs/aws.md for what SES bills for tenants).
   */
  readonly sesTenants: boolean;
  /** X-Ray active tracing on every function: opt-in, as X-Ray bills each traced invocation (about one per email step). */
  readonly tracing: boolean;
  /** The CloudFormation stack name, so staging and production can share an account. */
  readonly stackName: string;
  /** The SNS topic every alarm notifies (subscribe the operators to it). */
  readonly operatorTopicName: string;
  /** A custom domain for the API and the public links, with its ACM certificate (same region). */
  readonly customDomain?: { readonly name: string; readonly certificateArn: string };
  /** API Gateway stage throttling: steady requests per second and burst, across all callers. */
  readonly apiThrottle: { readonly ratePerSecond: number; readonly burst: number };
  /** Days webhook delivery rows are kept before DynamoDB TTL purges them. */
  readonly webhookDeliveryRetentionDays: number;
  /**
   * The team deliverability guardrail: warning and pause lines (fractions of the mail sent over 7
   * days) and the least volume before a rate counts; by default below SES's review lines.
   */
  readonly deliverability: {
    readonly bounceRateWarning: number;
    readonly bounceRatePause: number;
    readonly complaintRateWarning: number;
    readonly complaintRatePause: number;
    readonly minSent: number;
  };
  /**
   * Seconds a received message stays hidden, so after which a record its worker failed comes back
   * (every work queue); unset: six times the longest consumer's timeout (functions/workers.ts).
   */
  readonly queueVisibilitySeconds?: number;
  /**
   * The host name domains' tracking subdomains point at with a CNAME (an https endpoint the
   * operator runs in front of the API's /t/* routes for every tracking host); empty: tracking
   * links use the API origin and domains list no Tracking record.
   */
  readonly trackingCnameTarget: string;
  /**
   * Inbound mail: the SES receipt rule set the mailbox rule goes in. Unset: the stack creates its
   * own set (`<stackName>-inbound`) for the operator to activate; set: the name of the account's
   * active set, which the stack adds its rule to.
   */
  readonly inbound: { readonly ruleSetName?: string };
  /** The team and sender owner notices go out as (both empty: notices are only logged). */
  /**
   * The table's safety settings, both on unless turned off: deletion protection (CloudFormation or
   * a console click cannot delete it) and point-in-time recovery (any second of the last 35 days
   * can be restored to a new table).
   */
  readonly table: { readonly deletionProtection: boolean; readonly pointInTimeRecovery: boolean };
  /**
   * Days an email and its events are kept before DynamoDB's TTL removes them; 0 (the default):
   * kept until the team or the email is deleted.
   */
  readonly emailRetentionDays: number;
}

const REGION = /^[a-z]{2}(-[a-z]+)+-\d$/;

/** AWS caps these names at 64 characters (EventBridge Scheduler group, SES configuration set and receipt rule set). */
const AWS_NAME_MAX = 64;

/** The names the stack derives from its name: its schedule group, SES configuration set and receipt rule set. */
export const derivedNames = (stackName: string) => ({
  scheduleGroup: `${stackName}-schedules`,
  configurationSet: `${stackName}-mail`,
  inboundRuleSet: `${stackName}-inbound`,
  // The mailbox rule in it (kept naming the held domains at run time); 54 + 10 characters at most, as SES allows 64.
  inboundRule: `${stackName}-mailboxes`,
});

/** A yes/no context value: true or false, as a boolean or its string (`-c key=true`). */
const flag = (get: (key: string) => unknown, key: string, fallback: boolean): boolean => {
  const raw = get(key);
  if (raw === undefined) return fallback;
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  throw new Error(`${key} must be true or false, got ${JSON.stringify(raw)}`);
};

const customDomain = (get: (key: string) => unknown): { customDomain?: StackConfig['customDomain'] } => {
  const name = get('mailstack:domainName');
  const certificateArn = get('mailstack:certificateArn');
  if (name === undefined && certificateArn === undefined) return {};
  if (typeof name !== 'string' || !/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}$/.test(name))
    throw new Error(
      `mailstack:domainName must be a lower-case host name such as "mail-api.example.com", got ${JSON.stringify(name)}`,
    );
  if (
    typeof certificateArn !== 'string' ||
    !/^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[\w-]+$/.test(certificateArn)
  ) {
    throw new Error(
      `mailstack:certificateArn must be the ARN of an ACM certificate for ${name} in the stack's region (arn:aws:acm:<region>:<account>:certificate/<id>), got ${JSON.stringify(certificateArn)}`,
    );
  }
  return { customDomain: { name, certificateArn } };
};

const inboundRuleSet = (get: (key: string) => unknown): StackConfig['inbound'] => {
  const name = get('mailstack:inboundRuleSetName');
  if (name === undefined || name === '') return {};
  if (typeof name !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(name)) {
    throw new Error(
      `mailstack:inboundRuleSetName must be the name of the account's active SES receipt rule set (letters, digits, . _ -, at most 64 characters), got ${JSON.stringify(name)}`,
    );
  }
  return { ruleSetName: name };
};

/** SES's own lines for an account: it may pause sending at a 10% bounce or 0.5% complaint rate. */
const SES_PAUSE_LINES = { bounce: 0.1, complaint: 0.005 } as const;

const deliverability = (
  get: (key: string) => unknown,
  positive: (key: string, fallback: number) => number,
): StackConfig['deliverability'] => {
  const fraction = (key: string, fallback: number, below: number): number => {
    const raw = get(key) ?? fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0 || value >= below)
      throw new Error(
        `${key} must be a fraction above 0 and under ${below} (SES's own pause line; 0.04 is 4%), got ${JSON.stringify(raw)}`,
      );
    return value;
  };
  const lines = (metric: 'bounce' | 'complaint') => {
    const warning = fraction(
      `mailstack:${metric}RateWarning`,
      DEFAULTS[`${metric}RateWarning`],
      SES_PAUSE_LINES[metric],
    );
    const pause = fraction(`mailstack:${metric}RatePause`, DEFAULTS[`${metric}RatePause`], SES_PAUSE_LINES[metric]);
    if (warning > pause)
      throw new Error(
        `mailstack:${metric}RateWarning (${warning}) must not be above mailstack:${metric}RatePause (${pause}): the warning comes before the pause`,
      );
    return { warning, pause };
  };
  const bounce = lines('bounce');
  const complaint = lines('complaint');
  return {
    bounceRateWarning: bounce.warning,
    bounceRatePause: bounce.pause,
    complaintRateWarning: complaint.warning,
    complaintRatePause: complaint.pause,
    minSent: positive('mailstack:deliverabilityMinSent', DEFAULTS.deliverabilityMinSent),
  };
};

/** Reads and validates the stack configuration; a bad value fails synthesis with what to fix. */
export const readStackConfig = (get: (key: string) => unknown): StackConfig => {
  const regions = String(get('mailstack:deliveryRegions') ?? DEFAULTS.deliveryRegion)
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  const bad = regions.filter((r) => !REGION.test(r));
  if (regions.length === 0 || bad.length > 0) {
    throw new Error(
      `mailstack:deliveryRegions must be a comma-separated list of AWS regions such as "us-east-1,eu-west-1", got ${JSON.stringify(get('mailstack:deliveryRegions'))}`,
    );
  }
  if (regions.length > 1) {
    throw new Error(
      `mailstack:deliveryRegions lists ${regions.join(', ')}, but one stack delivers in one region: its SES configuration sets, event topic, queue and grants exist only there, so a domain in ${regions.slice(1).join(', ')} could not send. Set mailstack:deliveryRegions to one region (the stack deploys there), and deploy another stack (-c mailstack:stackName=...) for another region.`,
    );
  }
  const positive = (key: string, fallback: number): number => {
    const raw = get(key) ?? fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1)
      throw new Error(`${key} must be a whole number of at least 1, got ${JSON.stringify(raw)}`);
    return value;
  };
  const between = (key: string, fallback: number, min: number, max: number): number => {
    const raw = get(key) ?? fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max)
      throw new Error(`${key} must be a whole number from ${min} to ${max}, got ${JSON.stringify(raw)}`);
    return value;
  };
  const cloud = get('mailstack:cloud');
  const stackName = String(get('mailstack:stackName') ?? 'Mailstack');
  if (!/^[A-Za-z][A-Za-z0-9-]{0,100}$/.test(stackName))
    throw new Error(
      `mailstack:stackName must start with a letter and hold only letters, digits and hyphens (at most 101 characters), got ${JSON.stringify(stackName)}`,
    );
  const tooLong = Object.values(derivedNames(stackName)).filter((name) => name.length > AWS_NAME_MAX);
  if (tooLong.length > 0)
    throw new Error(
      `mailstack:stackName ${JSON.stringify(stackName)} is ${stackName.length} characters: the stack names its schedule group, SES configuration set and receipt rule set after it (${tooLong.join(', ')}), and AWS caps each at ${AWS_NAME_MAX} characters. Choose a stack name of at most ${AWS_NAME_MAX - Math.max(...Object.values(derivedNames('')).map((n) => n.length))} characters.`,
    );
  const operatorTopicName = String(get('mailstack:operatorTopicName') ?? `${stackName}-operators`);
  if (!/^[A-Za-z0-9_-]{1,256}$/.test(operatorTopicName))
    throw new Error(
      `mailstack:operatorTopicName must be 1-256 letters, digits, hyphens or underscores, got ${JSON.stringify(operatorTopicName)}`,
    );
  return {
    deliveryRegions: regions,
    cloud: cloud === undefined ? DEFAULTS.cloud : cloud === true || cloud === 'true',
    providerRatePerSecond: positive('mailstack:providerRatePerSecond', DEFAULTS.providerRatePerSecond),
    apiRateLimitPerMinute: positive('mailstack:apiRateLimitPerMinute', DEFAULTS.apiRateLimitPerMinute),
    systemSender: String(get('mailstack:systemSender') ?? DEFAULTS.systemSender),
    systemTeamId: String(get('mailstack:systemTeamId') ?? ''),
    smtp: {
      enabled: flag(get, 'mailstack:smtpRelay', DEFAULTS.smtpRelay),
      tlsSecretName: String(get('mailstack:smtpTlsSecretName') ?? DEFAULTS.smtpTlsSecretName),
      hostname: get('mailstack:smtpHostname') ? String(get('mailstack:smtpHostname')) : undefined,
      desiredCount: positive('mailstack:smtpDesiredCount', DEFAULTS.smtpDesiredCount),
      maxCount: positive('mailstack:smtpMaxCount', DEFAULTS.smtpMaxCount),
    },
    ...customDomain(get),
    sendCapacity: {
      ...(get('mailstack:sendConcurrency') === undefined
        ? {}
        : {
            override: between(
              'mailstack:sendConcurrency',
              2,
              EVENT_SOURCE_CONCURRENCY.min,
              EVENT_SOURCE_CONCURRENCY.max,
            ),
          }),
      ceiling: between(
        'mailstack:sendConcurrencyCeiling',
        DEFAULT_SEND_CONCURRENCY_CEILING,
        EVENT_SOURCE_CONCURRENCY.min,
        EVENT_SOURCE_CONCURRENCY.max,
      ),
      msPerEmail: between('mailstack:sendMsPerEmail', DEFAULT_SEND_MS_PER_EMAIL, 1, 60_000),
    },
    tracing: flag(get, 'mailstack:tracing', false),
    sesTenants: flag(get, 'mailstack:sesTenants', false),
    stackName,
    operatorTopicName,
    apiThrottle: {
      ratePerSecond: positive('mailstack:apiThrottleRatePerSecond', 100),
      burst: positive('mailstack:apiThrottleBurst', 200),
    },
    webhookDeliveryRetentionDays: positive('mailstack:webhookDeliveryRetentionDays', 30),
    deliverability: deliverability(get, positive),
    queueVisibilitySeconds: readQueueVisibility(
      get('mailstack:queueVisibilitySeconds'),
      'mailstack:queueVisibilitySeconds',
    ),
    trackingCnameTarget: canonicalHostName(String(get('mailstack:trackingCnameTarget') ?? '')),
    inbound: inboundRuleSet(get),
    table: {
      deletionProtection: flag(get, 'mailstack:tableDeletionProtection', true),
      pointInTimeRecovery: flag(get, 'mailstack:tablePointInTimeRecovery', true),
    },
    emailRetentionDays: between('mailstack:emailRetentionDays', 0, 0, 3650),
  };
};
