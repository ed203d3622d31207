import { DEFAULT_PROVIDER_RATE_PER_SECOND } from '@mailstack/core/limits';

/** Deployment settings of the stack, read from CDK context (cdk.json or `-c key=value`). */
export interface StackConfig {
  /** Delivery regions this deployment serves; the first is the default for new domains. */
  readonly deliveryRegions: readonly string[];
  /** Cloud mode: plans, caps and quotas apply. */
  readonly cloud: boolean;
  /** The provider's send quota, emails per second. */
  readonly providerRatePerSecond: number;
  /** Requests per minute per API key. */
  readonly apiRateLimitPerMinute: number;
  /** The SMTP relay: the Secrets Manager secret with its TLS certificate and key, its public name, and its task counts. */
  readonly smtp: {
    readonly tlsSecretName: string;
    readonly hostname: string | undefined;
    readonly desiredCount: number;
    readonly maxCount: number;
  };
}

const REGION = /^[a-z]{2}(-[a-z]+)+-\d$/;

/** Reads and validates the stack configuration; a bad value fails synthesis with what to fix. */
export const readStackConfig = (get: (key: string) => unknown): StackConfig => {
  const regions = String(get('mailstack:deliveryRegions') ?? 'us-east-1').split(',').map((r) => r.trim()).filter(Boolean);
  const bad = regions.filter((r) => !REGION.test(r));
  if (regions.length === 0 || bad.length > 0) {
    throw new Error(`mailstack:deliveryRegions must be a comma-separated list of AWS regions such as "us-east-1,eu-west-1", got ${JSON.stringify(get('mailstack:deliveryRegions'))}`);
  }
  const positive = (key: string, fallback: number): number => {
    const raw = get(key) ?? fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1) throw new Error(`${key} must be a whole number of at least 1, got ${JSON.stringify(raw)}`);
    return value;
  };
  const cloud = get('mailstack:cloud');
  return {
    deliveryRegions: regions,
    cloud: cloud === true || cloud === 'true',
    providerRatePerSecond: positive('mailstack:providerRatePerSecond', DEFAULT_PROVIDER_RATE_PER_SECOND),
    apiRateLimitPerMinute: positive('mailstack:apiRateLimitPerMinute', 600),
    smtp: {
      tlsSecretName: String(get('mailstack:smtpTlsSecretName') ?? 'mailstack/smtp-tls'),
      hostname: get('mailstack:smtpHostname') ? String(get('mailstack:smtpHostname')) : undefined,
      desiredCount: positive('mailstack:smtpDesiredCount', 2),
      maxCount: positive('mailstack:smtpMaxCount', 10),
    },
  };
};
