import { ConfigurationSet, ConfigurationSetEventDestination, EmailSendingEvent, EventDestination } from 'aws-cdk-lib/aws-ses';
import { SubscriptionProtocol, Topic } from 'aws-cdk-lib/aws-sns';
import { UrlSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';

/** Props of the email provider wiring. */
export interface EmailProviderProps {
  /** Where SNS posts SES events (the provider-events route). */
  readonly eventsUrl: string;
}

/** The SES configuration set whose sending events reach the provider-events route through SNS. */
export class EmailProvider extends Construct {
  readonly configurationSet: ConfigurationSet;
  readonly topic: Topic;

  constructor(scope: Construct, id: string, props: EmailProviderProps) {
    super(scope, id);
    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet');
    this.topic = new Topic(this, 'Events');
    new ConfigurationSetEventDestination(this, 'ToSns', {
      configurationSet: this.configurationSet,
      destination: EventDestination.snsTopic(this.topic),
      events: [
        EmailSendingEvent.SEND, EmailSendingEvent.DELIVERY, EmailSendingEvent.BOUNCE, EmailSendingEvent.COMPLAINT,
        EmailSendingEvent.DELIVERY_DELAY, EmailSendingEvent.REJECT, EmailSendingEvent.RENDERING_FAILURE,
        EmailSendingEvent.OPEN, EmailSendingEvent.CLICK,
      ],
    });
    this.topic.addSubscription(new UrlSubscription(props.eventsUrl, { protocol: SubscriptionProtocol.HTTPS, rawMessageDelivery: false }));
  }
}
