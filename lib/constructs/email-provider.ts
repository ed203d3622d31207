import { Duration } from 'aws-cdk-lib';
import { ConfigurationSet, ConfigurationSetEventDestination, EmailSendingEvent, EventDestination } from 'aws-cdk-lib/aws-ses';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { SqsSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue, QueueEncryption, type IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { acknowledge } from './acknowledge.ts';
import { configurationSetFor } from '@mailstack/core/adapters/aws/sesv2-transport';

/** Props of the email provider wiring. */
export interface EmailProviderProps {
  /** The provider-events queue (its worker applies the events; it has its own dead-letter queue). */
  readonly eventsQueue: IQueue;
  /** Name of the base configuration set; the tracking variants add `-open`, `-click`, `-open-click`. */
  readonly configurationSetName: string;
}

const ALWAYS: readonly EmailSendingEvent[] = [
  EmailSendingEvent.SEND, EmailSendingEvent.DELIVERY, EmailSendingEvent.BOUNCE, EmailSendingEvent.COMPLAINT,
  EmailSendingEvent.DELIVERY_DELAY, EmailSendingEvent.REJECT, EmailSendingEvent.RENDERING_FAILURE,
];

/**
 * The SES configuration set and the path of its events: SES → SNS → the provider-events SQS
 * queue (14 days of retention, so hours of downtime lose nothing) → its worker. SNS deliveries
 * that fail land in a dead-letter queue of their own.
 */
export class EmailProvider extends Construct {
  /** The base set (no tracking) and its three tracking variants; the sender picks one per email. */
  readonly configurationSets: ConfigurationSet[] = [];
  readonly configurationSetName: string;
  readonly topic: Topic;
  /** Notifications SNS could not put on the events queue. */
  readonly deliveryDeadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: EmailProviderProps) {
    super(scope, id);
    this.topic = new Topic(this, 'Events', { enforceSSL: true });
    this.configurationSetName = props.configurationSetName;
    // Publishing OPEN or CLICK makes SES add a pixel or rewrite every link, so only the variants a
    // domain's switches choose publish them; the base set (every domain's default) publishes neither.
    for (const tracking of [{ open: false, click: false }, { open: true, click: false }, { open: false, click: true }, { open: true, click: true }]) {
      const name = configurationSetFor(props.configurationSetName, tracking);
      const set = new ConfigurationSet(this, name, { configurationSetName: name });
      new ConfigurationSetEventDestination(this, `${name}-to-sns`, {
        configurationSet: set,
        destination: EventDestination.snsTopic(this.topic),
        events: [...ALWAYS, ...(tracking.open ? [EmailSendingEvent.OPEN] : []), ...(tracking.click ? [EmailSendingEvent.CLICK] : [])],
      });
      this.configurationSets.push(set);
    }
    this.deliveryDeadLetterQueue = new Queue(this, 'DeliveryDlq', { retentionPeriod: Duration.days(14), encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true });
    acknowledge(this.deliveryDeadLetterQueue, { 'AwsSolutions-SQS3': 'this is the dead-letter queue of the SNS subscription (its redrive policy), which the rule does not see' });
    // Not raw: the worker reads the envelope's TopicArn and refuses any other topic.
    this.topic.addSubscription(new SqsSubscription(props.eventsQueue, { rawMessageDelivery: false, deadLetterQueue: this.deliveryDeadLetterQueue }));
  }
}
