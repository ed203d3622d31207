import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';
import { readConfig, type Config } from './config.ts';
import { createClients } from '../adapters/aws/clients.ts';
import { newCounters, type AdapterCounters } from '../adapters/aws/counters.ts';
import { sesIdentities } from '../adapters/aws/sesv2-identities.ts';
import { sqsQueue } from '../adapters/aws/sqs-queue.ts';
import { dynamoIdempotencyStore } from '../adapters/aws/dynamodb-idempotency.ts';
import { eventBridgeScheduler } from '../adapters/aws/eventbridge-scheduler.ts';
import { tableScheduler } from '../adapters/aws/table-scheduler.ts';
import { queueDelayScheduler } from '../adapters/aws/queue-delay-scheduler.ts';
import { dynamoTableStore } from '../adapters/aws/dynamodb-table-store.ts';
import { laggingIndexStore } from '../adapters/aws/lagging-index-store.ts';
import type { TableStore } from '../ports/table-store.ts';
import { systemClock, type Clock } from '../ports/clock.ts';
import { uuidV7, type IdGenerator } from '../ports/ids.ts';
import type { IdentityProvider } from '../ports/identities.ts';
import type { JobQueue } from '../ports/queue.ts';
import type { IdempotencyStore } from '../ports/idempotency.ts';
import type { Scheduler } from '../ports/scheduler.ts';
import type { MailTransport } from '../ports/mail-transport.ts';
import type { SenderTenants } from '../ports/sender-tenants.ts';
import { sesTenants } from '../adapters/aws/sesv2-tenants.ts';
import { parseKeyring, staticLinkKeys, missingLinkKeys, type LinkKeys } from '../ports/link-keys.ts';
import { secretsManagerLinkKeys } from '../adapters/aws/secrets-manager-keys.ts';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SESClient } from '@aws-sdk/client-ses';
import type { InboundRecipients } from '../ports/inbound-recipients.ts';
import { sesReceiptRule } from '../adapters/aws/ses-receipt-rule.ts';
import {
  systemCnames,
  systemResolver,
  systemTxt,
  type CnameResolver,
  type HostResolver,
  type TxtResolver,
} from '../ports/dns.ts';
import type { WebhookPoster } from '../ports/webhook-poster.ts';
import { nodeWebhookPoster } from '../adapters/node/webhook-poster.ts';
import { sesTransport } from '../adapters/aws/sesv2-transport.ts';
import { sesAccount } from '../adapters/aws/sesv2-account.ts';
import type { ProviderAccount } from '../ports/provider-account.ts';
import { missingContentStore, type ContentStore } from '../ports/content-store.ts';
import { s3ContentStore } from '../adapters/aws/s3-content-store.ts';
import { newItemCache, type ItemCache } from '../table/item-cache.ts';

/** Everything a use case may touch: ports and settings, never a module-level client. */
export interface Deps {
  readonly config: Config;
  /**
   * The table's document operations: called only by the table adapter (layers/core/src/table/ops.ts
   * and query-page.ts); every other module goes through its functions (test/unit/architecture/deps-ports.test.ts).
   */
  readonly tableStore: TableStore;
  readonly table: string;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly queue: JobQueue;
  readonly scheduler: Scheduler;
  readonly identities: IdentityProvider;
  readonly mail: MailTransport;
  /** Each team's own SES tenant (`SES_TENANTS`); absent: every team sends as the account. */
  readonly tenants?: SenderTenants;
  /**
   * The recipients of the stack's inbound receipt rule (INBOUND_RULE_SET_NAME and
   * INBOUND_RULE_NAME); absent: no inbound rule to keep in step with the held domains.
   */
  readonly inboundRecipients?: InboundRecipients;
  /** The provider account's state (its maximum send rate, quota and sending status). */
  readonly providerAccount: ProviderAccount;
  /** Message content too large for a row (bodies and attachments past CONTENT_INLINE_MAX_BYTES). */
  readonly content: ContentStore;
  /** The keys that sign and check unsubscribe and preference links. */
  readonly linkKeys: LinkKeys;
  /** Host name resolution (webhook targets are checked after it). */
  readonly dns: HostResolver;
  /** CNAME lookups (tracking records are verified with them). */
  readonly cnames: CnameResolver;
  /** TXT lookups (a domain claim's proof of DNS control). */
  readonly txt: TxtResolver;
  /** Sends webhook requests to the address a target check returned. */
  readonly webhookPoster: WebhookPoster;
  /** Each team's idempotency records (the Idempotency-Key of the API and the SMTP relay). */
  readonly idempotency: IdempotencyStore;
  /**
   * Structured JSON logs; the correlation id is the API request id, carried to the workers on
   * each queued message, with `email_id` and `provider_message_id` appended where known.
   */
  readonly logger: Logger;
  /** Custom metrics (CloudWatch embedded metric format), flushed at the end of each invocation. */
  readonly metrics: Metrics;
  readonly counters: AdapterCounters;
  /** This process's short-lived copies of keys, teams and sending domains (table/item-cache.ts). */
  readonly itemCache: ItemCache;
}

/** The namespace of the service's own metrics in CloudWatch. */
export const METRICS_NAMESPACE = 'Mailstack';

/** Writes the invocation's metrics, if it recorded any (an empty flush only logs a warning). */
export const flushMetrics = (deps: Pick<Deps, 'metrics'>): void => {
  if (deps.metrics.hasStoredMetrics()) deps.metrics.publishStoredMetrics();
};

/** Arn of an SQS queue from its URL (https://sqs.<region>.amazonaws.com/<account>/<name>). */
const queueArnOf =
  (config: Config) =>
  (url: string): string => {
    const [, , host = '', account = '', name = ''] = url.split('/');
    const region = host.split('.')[1] ?? config.AWS_REGION;
    return `arn:aws:sqs:${region}:${account}:${name}`;
  };

/** Builds the dependencies of one runtime from configuration. */
export const createDeps = (config: Config = readConfig(), overrides: Partial<Deps> = {}): Deps => {
  const counters = newCounters();
  const clients = createClients(config, counters);
  const logger = overrides.logger ?? new Logger({ serviceName: 'mailstack', logLevel: config.LOG_LEVEL as 'INFO' });
  const correlationId = () => {
    const id = logger.getCorrelationId();
    return typeof id === 'string' ? id : undefined;
  };
  const queue = sqsQueue(clients.sqs, counters, correlationId);
  // What is due within the minute goes to its queue with a delay (the scheduler fires within a minute of its instant).
  const scheduler = queueDelayScheduler(
    config.SCHEDULER_MODE === 'local'
      ? tableScheduler(clients.db, config.TABLE_NAME, config.LOCAL_SCHEDULER_FIRES)
      : eventBridgeScheduler(clients.scheduler, config.SCHEDULER_GROUP, config.SCHEDULER_ROLE_ARN, queueArnOf(config)),
    queue,
    () => built.clock,
  );
  const built: Deps = {
    config,
    tableStore:
      config.INDEX_LAG_MS > 0
        ? laggingIndexStore(dynamoTableStore(clients.db), config.INDEX_LAG_MS, { now: () => built.clock.now() })
        : dynamoTableStore(clients.db),
    table: config.TABLE_NAME,
    clock: systemClock,
    ids: uuidV7,
    queue,
    scheduler,
    identities: sesIdentities(clients.sesIdentities, config.SES_CONFIGURATION_SET, config.STACK_NAME),
    linkKeys: config.LINK_SECRET_ARN
      ? secretsManagerLinkKeys(new SecretsManagerClient({ region: config.AWS_REGION }), config.LINK_SECRET_ARN)
      : config.TOKEN_SECRET
        ? staticLinkKeys(parseKeyring(config.TOKEN_SECRET))
        : missingLinkKeys(),
    mail: sesTransport(clients.ses, config.SES_CONFIGURATION_SET, counters),
    ...(config.SES_TENANTS
      ? { tenants: sesTenants(clients.sesIdentities, config.SES_CONFIGURATION_SET, config.SES_EVENTS_TOPIC_ARN) }
      : {}),
    ...(config.INBOUND_RULE_SET_NAME && config.INBOUND_RULE_NAME
      ? {
          inboundRecipients: sesReceiptRule(
            new SESClient({ region: config.AWS_REGION }),
            config.INBOUND_RULE_SET_NAME,
            config.INBOUND_RULE_NAME,
          ),
        }
      : {}),
    providerAccount: sesAccount(clients.sesIdentities),
    content: config.CONTENT_BUCKET
      ? s3ContentStore(clients.s3, config.CONTENT_BUCKET, {
          counters,
          warn: (message, attributes) => logger.warn(message, attributes),
          endpoint: config.S3_ENDPOINT,
        })
      : missingContentStore(),
    dns: systemResolver,
    webhookPoster: nodeWebhookPoster,
    cnames: systemCnames,
    txt: systemTxt,
    idempotency: dynamoIdempotencyStore(clients.dynamo, config.TABLE_NAME),
    logger,
    metrics: new Metrics({ namespace: METRICS_NAMESPACE, serviceName: 'mailstack' }),
    counters,
    itemCache: newItemCache(config.LOOKUP_CACHE_MS),
    ...overrides,
  };
  return built;
};

let current: Deps | undefined;

/** The process-wide dependencies, built on first use (cold start) from the environment. */
export const getDeps = (): Deps => (current ??= createDeps());

/** Replaces the process-wide dependencies (the local host and tests). */
export const setDeps = (deps: Deps | undefined): void => {
  current = deps;
};
