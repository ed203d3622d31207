/**
 * The background manifest: the queues, the workers that consume them (functions/workers/), and the
 * timers (functions/timers/), read by the CDK stack and by the local host alike.
 */

/**
 * The worker queues; each has a dead-letter queue on AWS. `visibilityTimeoutSeconds` is the least
 * the local host hides a received message while its worker runs. A queue's visibility, after
 * which a failed record comes back, is `queueVisibilitySeconds` below on AWS and locally alike:
 * six times the longest consumer's timeout, as AWS advises for Lambda event sources (a throttled
 * batch keeps its messages hidden while Lambda retries it; test/infra/mail-stack.test.ts holds it).
 */
export const QUEUES = {
  send: { env: 'SEND_QUEUE_URL', visibilityTimeoutSeconds: 60 },
  /**
   * Send jobs that come back later (a place booked ahead in the send line, a retry after a fault),
   * with their delay: apart from `send`, so each comes back at its time and not behind a backlog's
   * jobs not read yet.
   */
  'send-later': { env: 'SEND_LATER_QUEUE_URL', visibilityTimeoutSeconds: 60 },
  /** SES events, from the configuration set's SNS topic (a local stand-in puts them here directly). */
  'provider-events': { env: 'PROVIDER_EVENTS_QUEUE_URL', visibilityTimeoutSeconds: 60 },
  events: { env: 'EVENTS_QUEUE_URL', visibilityTimeoutSeconds: 60 },
  webhooks: { env: 'WEBHOOK_QUEUE_URL', visibilityTimeoutSeconds: 120 },
  erase: { env: 'ERASE_QUEUE_URL', visibilityTimeoutSeconds: 120 },
  /** Broadcast send jobs: apart from `send` so transactional mail never waits behind a broadcast. */
  broadcast: { env: 'BROADCAST_QUEUE_URL', visibilityTimeoutSeconds: 60 },
  /** Broadcast fan-out steps (also dropped here by the scheduler for later pages). */
  fanout: { env: 'FANOUT_QUEUE_URL', visibilityTimeoutSeconds: 120 },
  /** Request logs, one message per API request, queued after its answer is formed (GET /logs). */
  'request-logs': { env: 'REQUEST_LOGS_QUEUE_URL', visibilityTimeoutSeconds: 60 },
  /** Automation jobs: sent events to start and resume runs, and each step of a run (also dropped here by the scheduler when a delay or wait ends). */
  automations: { env: 'AUTOMATION_QUEUE_URL', visibilityTimeoutSeconds: 60 },
} as const;

/** A queue name. */
export type QueueName = keyof typeof QUEUES;

/**
 * The queues EventBridge Scheduler delivers to (a scheduled email, a broadcast's later page, a
 * webhook retry past SQS's 15-minute delay, an automation step after a delay): the scheduler's
 * role may send to these only (test/infra/iam-grants.test.ts reads each schedule's target).
 */
export const SCHEDULED_QUEUES: readonly QueueName[] = ['send', 'fanout', 'webhooks', 'automations'];

/**
 * A table operation a function issues (the table store's methods, `table/ops.ts`), each granted as
 * its IAM actions on the table alone (`query` on its indexes too): a transaction's items are
 * authorized as the puts, updates and deletes they hold, and `idempotency` is Powertools' record
 * of an Idempotency-Key (get, put, update, delete).
 */
export type TableAccess =
  | 'get'
  | 'query'
  | 'batchGet'
  | 'put'
  | 'update'
  | 'delete'
  | 'batchWrite'
  | 'transactWrite'
  | 'idempotency';

/** What a function does with objects of the content-store bucket. */
export type ObjectAccess = 'put' | 'get' | 'delete';

/** The IAM actions of each table operation. */
export const TABLE_ACTIONS: Readonly<Record<TableAccess, readonly string[]>> = {
  get: ['dynamodb:GetItem'],
  query: ['dynamodb:Query'],
  batchGet: ['dynamodb:BatchGetItem'],
  put: ['dynamodb:PutItem'],
  update: ['dynamodb:UpdateItem'],
  delete: ['dynamodb:DeleteItem'],
  batchWrite: ['dynamodb:BatchWriteItem'],
  transactWrite: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
  idempotency: ['dynamodb:GetItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
};

/**
 * What a function needs beyond the table, declared next to it in the manifests; the stack grants
 * exactly this (least privilege) and injects only the matching settings.
 */
export interface Needs {
  /** The table operations it issues (nothing unless listed; test/infra/iam-grants.test.ts holds the list against the code). */
  readonly table?: readonly TableAccess[];
  /** Queues it sends to (a worker's own queue is read through its event source). */
  readonly queues?: readonly QueueName[];
  /** Creates schedules and cancels them (scheduled emails); `true`: both. */
  readonly scheduler?: boolean | readonly ('schedule' | 'cancel')[];
  /** Signs or verifies unsubscribe and preference links. */
  readonly linkSecret?: boolean;
  /** Manages SES identities (sending domains), and names the held ones in the inbound receipt rule. */
  readonly sesIdentities?: boolean;
  /** Names the held domains in the inbound receipt rule (reads and updates that one rule). */
  readonly inboundRule?: boolean;
  /** Sends email through SES. */
  readonly sesSending?: boolean;
  /** Reads or writes message content kept off the row (the content-store bucket); `true`: put, get and delete. */
  readonly contentStore?: boolean | readonly ObjectAccess[];
  /** Reads or writes mailbox mail (the content-store bucket's mailboxes/ keys); `true`: put, get and delete. */
  readonly mailboxStore?: boolean | readonly ObjectAccess[];
}

/** A worker: a Lambda fed by one queue. `entry` is relative to functions/, without extension. */
export interface WorkerEntry {
  readonly name: string;
  readonly queue: QueueName;
  readonly entry: string;
  /** @default - 10 */
  readonly batchSize?: number;
  /** @default - the table only */
  readonly needs?: Needs;
  /** The function's timeout on AWS; its queue's visibility is six times this. @default - 50 */
  readonly timeoutSeconds?: number;
  /** Pollers of the local host (Lambda scales its own on AWS). @default - 1 */
  readonly concurrency?: number;
}

/** A worker's timeout on AWS, in seconds. */
export const workerTimeoutSeconds = (worker: WorkerEntry): number => worker.timeoutSeconds ?? 50;

/** The longest visibility SQS allows (12 hours). */
const MAX_VISIBILITY_SECONDS = 43_200;

/**
 * Reads the deployment's queue visibility setting (`mailstack:queueVisibilitySeconds` in CDK
 * context, QUEUE_VISIBILITY_SECONDS for the local host): unset, the default below; else whole
 * seconds from 1 to SQS's 12 hours.
 */
export const readQueueVisibility = (raw: unknown, key: string): number | undefined => {
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > MAX_VISIBILITY_SECONDS)
    throw new Error(
      `${key} must be a whole number of seconds from 1 to ${MAX_VISIBILITY_SECONDS} (how long a received message stays hidden; a record its worker fails comes back after it), got ${JSON.stringify(raw)}`,
    );
  return value;
};

/**
 * How long a received message of queue `name` stays hidden, on AWS and on the local host alike:
 * a record its worker fails comes back only after it (Lambda's event source mapping leaves the
 * record to the queue). Six times the longest consumer's timeout, as AWS advises for Lambda event
 * sources (300 s with the 50 s default), unless the deployment's setting names it; undefined for a
 * queue nothing consumes.
 */
export const queueVisibilitySeconds = (
  name: QueueName,
  setting?: number,
  workers: readonly WorkerEntry[] = WORKERS,
): number | undefined => {
  const consumers = workers.filter((w) => w.queue === name).map(workerTimeoutSeconds);
  if (consumers.length === 0) return undefined;
  return setting ?? 6 * Math.max(...consumers);
};

/** A periodic task (EventBridge rule on AWS, an interval locally). */
export interface TimerEntry {
  readonly name: string;
  readonly entry: string;
  readonly everyMinutes: number;
  /** @default - the table only */
  readonly needs?: Needs;
}

/** Every worker. */
/** What the send worker needs, on the send queue and on the queue of the jobs that came back. */
const SEND_WORKER_NEEDS: Needs = {
  table: ['get', 'query', 'batchGet', 'put', 'update', 'transactWrite'],
  queues: ['send-later', 'events'],
  sesSending: true,
  linkSecret: true,
  contentStore: ['get'],
};

export const WORKERS: readonly WorkerEntry[] = [
  {
    name: 'send-email',
    queue: 'send',
    entry: 'workers/send-email.worker',
    batchSize: 10,
    concurrency: 16,
    needs: SEND_WORKER_NEEDS,
  },
  {
    // The same worker on the jobs that came back: a job waiting in it for its instant holds none of
    // the pollers that read a backlog's new jobs.
    name: 'send-email-later',
    queue: 'send-later',
    entry: 'workers/send-email.worker',
    batchSize: 10,
    concurrency: 16,
    needs: SEND_WORKER_NEEDS,
  },
  {
    name: 'send-broadcast-email',
    queue: 'broadcast',
    entry: 'workers/send-broadcast-email.worker',
    batchSize: 10,
    concurrency: 8,
    needs: {
      table: ['get', 'query', 'batchGet', 'put', 'update', 'transactWrite'],
      queues: ['broadcast', 'events'],
      sesSending: true,
      linkSecret: true,
      contentStore: ['get'],
    },
  },
  {
    name: 'broadcast-fanout',
    queue: 'fanout',
    entry: 'workers/broadcast-fanout.worker',
    batchSize: 1,
    needs: {
      table: ['get', 'query', 'batchGet', 'put', 'update', 'delete', 'batchWrite', 'transactWrite'],
      queues: ['broadcast', 'fanout', 'events'],
      scheduler: ['schedule'],
      contentStore: ['put'],
    },
  },
  {
    name: 'erase-history',
    queue: 'erase',
    entry: 'workers/erase-history.worker',
    batchSize: 1,
    needs: {
      table: ['get', 'query', 'update', 'transactWrite'],
      queues: ['erase', 'events'],
    },
  },
  {
    name: 'receive-provider-events',
    queue: 'provider-events',
    entry: 'workers/receive-provider-events.worker',
    batchSize: 10,
    needs: {
      table: ['get', 'batchGet', 'put', 'update', 'transactWrite'],
      queues: ['events'],
    },
  },
  {
    name: 'fan-out-events',
    queue: 'events',
    entry: 'workers/fan-out-events.worker',
    batchSize: 10,
    concurrency: 2,
    needs: {
      table: ['get', 'query', 'put', 'update', 'delete', 'transactWrite'],
      queues: ['webhooks'],
      // A webhook retry past SQS's 15-minute delay is a schedule.
      scheduler: ['schedule'],
    },
  },
  {
    name: 'run-automations',
    queue: 'automations',
    entry: 'workers/run-automations.worker',
    batchSize: 10,
    concurrency: 4,
    needs: {
      table: ['get', 'query', 'batchGet', 'put', 'update', 'delete', 'batchWrite', 'transactWrite'],
      queues: ['automations', 'send', 'events'],
      scheduler: true,
      contentStore: ['put'],
    },
  },
  {
    name: 'deliver-webhooks',
    queue: 'webhooks',
    entry: 'workers/deliver-webhooks.worker',
    batchSize: 10,
    // Mostly waiting on receivers: a slow endpoint's 8 requests in flight leave pollers for the others.
    concurrency: 8,
    // SES identities: an endpoint failing, disabled or backed up is a notice to the owners (the service's own mail).
    needs: {
      table: ['get', 'query', 'batchGet', 'put', 'update', 'delete', 'batchWrite', 'transactWrite'],
      queues: ['webhooks', 'send', 'events'],
      scheduler: ['schedule'],
      contentStore: ['put'],
      sesIdentities: true,
    },
  },
  {
    name: 'record-request-logs',
    queue: 'request-logs',
    entry: 'workers/record-request-logs.worker',
    batchSize: 10,
    // Every answered request queues a log: one poller fell seconds behind a burst of requests
    // (thousands a minute), and a log answered then came late.
    concurrency: 4,
    needs: { table: ['batchWrite'] },
  },
];

/**
 * The queues something consumes: only these are created and handed to the functions, so no
 * queue fills without a reader (the events and webhooks queues start when their workers land).
 */
export const consumedQueues = (workers: readonly WorkerEntry[] = WORKERS): QueueName[] =>
  (Object.keys(QUEUES) as QueueName[]).filter((name) => workers.some((w) => w.queue === name));

/** Every timer. */
export const TIMERS: readonly TimerEntry[] = [
  {
    name: 'sweep-stuck-emails',
    entry: 'timers/sweep-stuck-emails',
    everyMinutes: 1,
    needs: {
      table: ['query'],
      queues: ['send', 'broadcast'],
    },
  },
  {
    name: 'release-parked-emails',
    entry: 'timers/release-parked-emails',
    everyMinutes: 1,
    needs: {
      table: ['query', 'update'],
      queues: ['send'],
    },
  },
  {
    name: 'sweep-undispatched-events',
    entry: 'timers/sweep-undispatched-events',
    everyMinutes: 1,
    needs: {
      table: ['query'],
      queues: ['events'],
    },
  },
  {
    name: 'sync-inbound-recipients',
    entry: 'timers/sync-inbound-recipients',
    everyMinutes: 15,
    needs: { table: ['query'], inboundRule: true },
  },
  {
    name: 'resume-erase-jobs',
    entry: 'timers/resume-erase-jobs',
    everyMinutes: 5,
    needs: { table: ['query'], queues: ['erase'] },
  },
];
