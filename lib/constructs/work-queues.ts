import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { QUEUES, type QueueName } from '../../functions/workers.ts';

/** Props of the work queues. */
export interface WorkQueuesProps {
  /** The queue manifest. @default - the QUEUES of functions/workers.ts */
  readonly queues?: Readonly<Record<string, { env: string; visibilityTimeoutSeconds: number }>>;
}

/** One SQS queue per manifest entry, each with its own dead-letter queue. */
export class WorkQueues extends Construct {
  /** The queues by name, with the env variable that carries each URL. */
  readonly byName: ReadonlyMap<string, { queue: Queue; env: string }>;

  constructor(scope: Construct, id: string, props: WorkQueuesProps = {}) {
    super(scope, id);
    const byName = new Map<string, { queue: Queue; env: string }>();
    for (const [name, spec] of Object.entries(props.queues ?? QUEUES)) {
      const dlq = new Queue(this, `${name}-dlq`, { retentionPeriod: Duration.days(14), encryption: QueueEncryption.SQS_MANAGED });
      const queue = new Queue(this, name, {
        visibilityTimeout: Duration.seconds(spec.visibilityTimeoutSeconds),
        encryption: QueueEncryption.SQS_MANAGED,
        deadLetterQueue: { queue: dlq, maxReceiveCount: 5 },
      });
      byName.set(name, { queue, env: spec.env });
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
