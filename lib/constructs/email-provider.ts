import { Duration } from 'aws-cdk-lib';
import {
  type CfnConfigurationSet,
  ConfigurationSet,
  ConfigurationSetEventDestination,
  EmailSendingEvent,
  EventDestination,
} from 'aws-cdk-lib/aws-ses';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { SqsSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue, QueueEncryption, type IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { acknowledge } from './acknowledge.ts';

/** Props of the email provider wiring. */
export interface EmailProviderProps {
  /** The provider-events queue (its worker applies the events; it has its own dead-letter queue). */
  readonly eventsQueue: IQueue;
  /** Name of the configuration set every send names. */
  readonly configurationSetName: string;
}

/** Every event but OPEN and CLICK: publishing those makes SES add its own pixel and rewrite links. */
const EVENTS: readonly EmailSendingEvent[] = [
  EmailSendingEvent.SEND,
  EmailSendingEvent.DELIVERY,
  EmailSendingEvent.BOUNCE,
  EmailSendingEvent.COMPLAINT,
  EmailSendingEvent.DELIVERY_DELAY,
  EmailSendingEvent.REJECT,
  EmailSendingEvent.RENDERING_FAILURE,
];

/** The suppression options of every configuration set the service sends with: none of SES's account-level reasons. */
const NO_ACCOUNT_SUPPRESSION = { suppressedReasons: [] as string[] };

/**
 * The SES configuration set and the path of its events: SES → SNS → the provider-events SQS
 * queue (14 days of retention, so hours of downtime lose nothing) → its worker. SNS deliveries
 * that fail land in a dead-letter queue of their own.
 */
export class EmailProvider extends Construct {
  /** The one configuration set: it publishes no opens or clicks (the service tracks those itself). */
  readonly configurationSet: ConfigurationSet;
  readonly configurationSetName: string;
  readonly topic: Topic;
  /** Notifications SNS could not put on the events queue. */
  readonly deliveryDeadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: EmailProviderProps) {
    super(scope, id);
    this.topic = new Topic(this, 'Events', { enforceSSL: true });
    this.configurationSetName = props.configurationSetName;
    // Opens and clicks are the service's own (its signed links and pixel, with machine opens told
    // apart), so SES publishes neither: it then adds no pixel and rewrites no link.
    const name = props.configurationSetName;
    this.configurationSet = new ConfigurationSet(this, name, { configurationSetName: name });
    // No reason at all: mail sent with this set is neither added to nor refused by the account's
    // suppression list, which every team of the account shares. Each team keeps its own list
    // (hard bounces and complaints suppress the address for that team only), so a bounce of one
    // team never turns into a refusal of another team's mail.
    (this.configurationSet.node.defaultChild as CfnConfigurationSet).suppressionOptions = NO_ACCOUNT_SUPPRESSION;
    new ConfigurationSetEventDestination(this, `${name}-to-sns`, {
      configurationSet: this.configurationSet,
      destination: EventDestination.snsTopic(this.topic),
      events: [...EVENTS],
    });
    this.deliveryDeadLetterQueue = new Queue(this, 'DeliveryDlq', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    acknowledge(this.deliveryDeadLetterQueue, {
      'AwsSolutions-SQS3':
        'this is the dead-letter queue of the SNS subscription (its redrive policy), which the rule does not see',
    });
    // Not raw: the worker reads the envelope's TopicArn and refuses any other topic.
    this.topic.addSubscription(
      new SqsSubscription(props.eventsQueue, {
        rawMessageDelivery: false,
        deadLetterQueue: this.deliveryDeadLetterQueue,
      }),
    );
  }
}
