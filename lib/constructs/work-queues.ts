import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { QUEUES, type QueueName } from '../../functions/workers.ts';

/** Props of the work queues. */
export interface WorkQueuesProps {
  /** The queue manifest. @default - the QUEUES of functions/workers.ts */
  readonly queues?: Readonly<Record<string, { env: string; visibilityTimeoutSeconds: number }>>;
  /**
   * Seconds a received message stays hidden, per queue: AWS advises six times the timeout of the
   * function that consumes it, so a slow batch is not handed to a second worker.
   * @default - the manifest's visibilityTimeoutSeconds
   */
  readonly visibilityTimeoutSeconds?: (name: string) => number | undefined;
}

/** One work queue with its dead-letter queue. */
export interface WorkQueue {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  /** The environment variable that carries the queue URL. */
  readonly env: string;
  /** Seconds a received message stays hidden. */
  readonly visibilityTimeoutSeconds: number;
}

/** One SQS queue per manifest entry, each with its own dead-letter queue. */
export class WorkQueues extends Construct {
  /** The queues by name, with the env variable that carries each URL. */
  readonly byName: ReadonlyMap<string, WorkQueue>;

  constructor(scope: Construct, id: string, props: WorkQueuesProps = {}) {
    super(scope, id);
    const byName = new Map<string, WorkQueue>();
    for (const [name, spec] of Object.entries(props.queues ?? QUEUES)) {
      const dlq = new Queue(this, `${name}-dlq`, {
        retentionPeriod: Duration.days(14),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      const visibilityTimeoutSeconds = props.visibilityTimeoutSeconds?.(name) ?? spec.visibilityTimeoutSeconds;
      const queue = new Queue(this, name, {
        visibilityTimeout: Duration.seconds(visibilityTimeoutSeconds),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        // Two weeks, the SQS maximum: work waits out any outage of the workers.
        retentionPeriod: Duration.days(14),
        deadLetterQueue: { queue: dlq, maxReceiveCount: 5 },
      });
      byName.set(name, { queue, deadLetterQueue: dlq, env: spec.env, visibilityTimeoutSeconds });
    }
    this.byName = byName;
  }

  /** The queue of a manifest name; fails synthesis when it is not declared. */
  get(name: QueueName | string): Queue {
    const found = this.byName.get(name);
    if (!found) throw new Error(`queue "${name}" is not declared in functions/workers.ts QUEUES`);
    return found.queue;
  }
}
