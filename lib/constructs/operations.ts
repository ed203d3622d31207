import { Duration, CfnOutput, Stack } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  type Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Topic, type ITopic } from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE } from '@mailstack/core/runtime/deps';

/** SES's own reputation lines: AWS reviews an account at 5% bounces and 0.1% complaints. */
export const SES_BOUNCE_RATE_ALARM = 0.05;
export const SES_COMPLAINT_RATE_ALARM = 0.001;

/**
 * The age of a work queue's oldest message that means its work is stuck, in seconds: the longest
 * delay a job is queued with (SQS's 15 minutes: a booked send-line place, a broadcast slot, a
 * retry), plus three receives of it (CloudWatch stops counting a message received more than three
 * times, so a poison message alone does not hold the alarm; the dead-letter alarm takes it).
 */
export const queueAgeAlarmSeconds = (visibilityTimeoutSeconds: number): number => 900 + 3 * visibilityTimeoutSeconds;

/** Five-minute periods a queue's oldest message must stay past its line before the alarm: one slow batch is noise. */
export const QUEUE_AGE_ALARM_PERIODS = 3;

/** Props of the operations wiring. */
export interface OperationsProps {
  /** Name of the SNS topic every alarm notifies. */
  readonly operatorTopicName: string;
  readonly api: HttpApi;
  /** The dashboard's own API (its pages and the mailbox agent API). */
  readonly dashboardApi?: HttpApi;
  /** Functions fed by queues or timers: any error or throttle alarms. */
  readonly workers: readonly { readonly name: string; readonly fn: IFunction }[];
  /** The API's functions (errors there surface as API 5xx). */
  readonly apiFunctions: readonly { readonly name: string; readonly fn: IFunction }[];
  /** Work queues and their dead-letter queues, with how long a received message stays hidden. */
  readonly queues: readonly {
    readonly name: string;
    readonly queue: IQueue;
    readonly deadLetterQueue: IQueue;
    readonly visibilityTimeoutSeconds?: number;
  }[];
  /** Topics whose failed deliveries mean lost provider events. */
  readonly eventTopics: readonly { readonly name: string; readonly topic: ITopic; readonly deadLetterQueue: IQueue }[];
  /** Where asynchronous invocations that failed after their retries are kept, with their events. */
  readonly failedInvocations?: readonly { readonly name: string; readonly queue: IQueue }[];
}

/**
 * What an operator watches: every alarm to one SNS topic (named in context), and one dashboard.
 * Alarms: messages in any dead-letter queue, a queue whose oldest message waits too long, worker
 * errors and throttles, API 5xx, SES's bounce and complaint rates, and provider-event deliveries
 * that failed. SES publishes no metric of its 24-hour quota use or of the account's sending status
 * (only Send, Delivery, Bounce, Complaint, Reject and the reputation rates): a spent quota or a
 * paused account parks the send line, and the line's own metric tells (docs/aws.md, Alarms).
 */
export class Operations extends Construct {
  readonly topic: Topic;
  readonly dashboard: Dashboard;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: OperationsProps) {
    super(scope, id);
    this.topic = new Topic(this, 'OperatorTopic', {
      topicName: props.operatorTopicName,
      displayName: 'mailstack alarms',
      enforceSSL: true,
    });
    // The topic's own policy replaces SNS's default one, so CloudWatch (a service principal, not
    // an identity of this account) may publish only if it says so: the stack's alarms, nothing else.
    const stack = Stack.of(this);
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'StackAlarmsPublish',
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: { 'aws:SourceArn': `arn:${stack.partition}:cloudwatch:${stack.region}:${stack.account}:alarm:*` },
        },
      }),
    );
    new CfnOutput(scope, 'OperatorTopicArn', {
      value: this.topic.topicArn,
      description: 'Alarms notify this topic: subscribe the operators (email, chat, pager)',
    });
    const action = new SnsAction(this.topic);
    const alarm = (alarmId: string, metric: Metric, threshold: number, description: string): Alarm => {
      const made = metric.createAlarm(this, alarmId, {
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: description,
      });
      made.addAlarmAction(action);
      made.addOkAction(action);
      this.alarms.push(made);
      return made;
    };
    const fiveMinutes = { period: Duration.minutes(5), statistic: 'Sum' };

    for (const { name, queue, visibilityTimeoutSeconds = 300 } of props.queues) {
      const made = queue
        .metricApproximateAgeOfOldestMessage({ period: Duration.minutes(5), statistic: 'Maximum' })
        .createAlarm(this, `${name}-oldest-message-age`, {
          threshold: queueAgeAlarmSeconds(visibilityTimeoutSeconds),
          evaluationPeriods: QUEUE_AGE_ALARM_PERIODS,
          datapointsToAlarm: QUEUE_AGE_ALARM_PERIODS,
          comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
          treatMissingData: TreatMissingData.NOT_BREACHING,
          alarmDescription: `The ${name} queue's oldest message has waited over ${queueAgeAlarmSeconds(visibilityTimeoutSeconds)} s for ${QUEUE_AGE_ALARM_PERIODS * 5} minutes: its worker is not keeping up or not running (throttled, failing, its event source disabled). Look at the ${name} worker's errors, throttles and concurrency.`,
        });
      made.addAlarmAction(action);
      made.addOkAction(action);
      this.alarms.push(made);
    }
    for (const { name, deadLetterQueue } of props.queues) {
      alarm(
        `${name}-dlq-depth`,
        deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        1,
        `Messages in the ${name} dead-letter queue: work failed five times. Read one, fix the cause, then redrive the queue.`,
      );
    }
    for (const { name, queue } of props.failedInvocations ?? []) {
      alarm(
        `${name}-failed-invocations`,
        queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        1,
        `A ${name} invocation failed after its retries: its event is kept in the queue. Fix the cause, then invoke ${name} again with each message's requestPayload (docs/mailboxes.md, inbound mail).`,
      );
    }
    for (const { name, fn } of props.workers) {
      alarm(
        `${name}-errors`,
        fn.metricErrors(fiveMinutes),
        1,
        `The ${name} function failed; its logs name the email and request ids.`,
      );
      alarm(
        `${name}-throttles`,
        fn.metricThrottles(fiveMinutes),
        1,
        `The ${name} function was throttled: the account's concurrency is exhausted.`,
      );
    }
    alarm(
      'api-5xx',
      props.api.metricServerError(fiveMinutes),
      1,
      'The API answered 5xx: every refusal should be a documented 4xx. Search the access logs by requestId.',
    );
    if (props.dashboardApi) {
      alarm(
        'dashboard-5xx',
        props.dashboardApi.metricServerError(fiveMinutes),
        1,
        "The dashboard (or the mailbox agent API on its origin) answered 5xx. Search the dashboard function's logs.",
      );
    }
    alarm(
      'ses-bounce-rate',
      new Metric({
        namespace: 'AWS/SES',
        metricName: 'Reputation.BounceRate',
        period: Duration.hours(1),
        statistic: 'Maximum',
      }),
      SES_BOUNCE_RATE_ALARM,
      'SES bounce rate at 5%: SES reviews the account at this level and may pause sending at 10%. Find the team sending to bad lists.',
    );
    alarm(
      'ses-complaint-rate',
      new Metric({
        namespace: 'AWS/SES',
        metricName: 'Reputation.ComplaintRate',
        period: Duration.hours(1),
        statistic: 'Maximum',
      }),
      SES_COMPLAINT_RATE_ALARM,
      'SES complaint rate at 0.1%: SES reviews the account at this level and may pause sending at 0.5%.',
    );
    alarm(
      'send-line-parked',
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName: 'SendLineParked',
        dimensionsMap: { service: 'mailstack' },
        ...fiveMinutes,
      }),
      1,
      "The provider send line is parked: SES paused or disabled the account's sending, its 24-hour quota is spent, the account is suspended, or the configuration set or the senders' permissions are refused. No email fails: they wait queued and go once SES allows it. The send workers' logs ('the provider send line is parked') give the reason (docs/sending.md, SES states).",
    );
    for (const { name, topic, deadLetterQueue } of props.eventTopics) {
      alarm(
        `${name}-delivery-failures`,
        topic.metricNumberOfNotificationsFailed(fiveMinutes),
        1,
        `SNS could not deliver ${name} to its queue: provider events (bounces, complaints) are waiting in the subscription's dead-letter queue.`,
      );
      alarm(
        `${name}-delivery-dlq-depth`,
        deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        1,
        `Provider events SNS could not deliver wait in the ${name} delivery dead-letter queue: fix the queue policy, then redrive them to the provider-events queue.`,
      );
    }

    const width = 12;
    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(3) });
    const sum = (metric: Metric, label: string) =>
      metric.with({ label, statistic: 'Sum', period: Duration.minutes(1) });
    this.dashboard.addWidgets(
      new TextWidget({
        markdown:
          '# mailstack\nAlarms notify the operator topic. API access logs carry `requestId`; function logs carry `correlation_id`, `email_id` and `provider_message_id`.',
        width: 24,
        height: 2,
      }),
      new GraphWidget({
        title: 'API requests and errors',
        width,
        left: [sum(props.api.metricCount(), 'requests')],
        right: [sum(props.api.metricClientError(), '4xx'), sum(props.api.metricServerError(), '5xx')],
      }),
      new GraphWidget({
        title: 'API latency (p99)',
        width,
        left: [props.api.metricLatency({ statistic: 'p99', label: 'p99 ms' })],
      }),
      new GraphWidget({
        title: 'Emails',
        width,
        left: (['Accepted', 'Sent', 'Failed', 'ProviderEvent'] as const).map(
          (m) =>
            new Metric({
              namespace: METRICS_NAMESPACE,
              metricName: `Emails${m}`,
              dimensionsMap: { service: 'mailstack' },
              statistic: 'Sum',
              period: Duration.minutes(1),
              label: m,
            }),
        ),
      }),
      new GraphWidget({
        title: 'SES reputation',
        width,
        left: [
          new MathExpression({
            expression: 'bounce * 100',
            usingMetrics: {
              bounce: new Metric({ namespace: 'AWS/SES', metricName: 'Reputation.BounceRate', statistic: 'Maximum' }),
            },
            label: 'bounce %',
          }),
          new MathExpression({
            expression: 'complaint * 100',
            usingMetrics: {
              complaint: new Metric({
                namespace: 'AWS/SES',
                metricName: 'Reputation.ComplaintRate',
                statistic: 'Maximum',
              }),
            },
            label: 'complaint %',
          }),
        ],
      }),
      new GraphWidget({
        title: 'Queues: waiting and oldest (s)',
        width,
        left: props.queues.map(({ name, queue }) => queue.metricApproximateNumberOfMessagesVisible({ label: name })),
        right: props.queues.map(({ name, queue }) =>
          queue.metricApproximateAgeOfOldestMessage({ label: `${name} age` }),
        ),
      }),
      new GraphWidget({
        title: 'Dead-letter queues',
        width,
        left: props.queues.map(({ name, deadLetterQueue }) =>
          deadLetterQueue.metricApproximateNumberOfMessagesVisible({ label: name }),
        ),
      }),
      new GraphWidget({
        title: 'Function errors and throttles',
        width,
        left: [...props.workers, ...props.apiFunctions].map(({ name, fn }) =>
          sum(fn.metricErrors() as Metric, `${name} errors`),
        ),
        right: [...props.workers, ...props.apiFunctions].map(({ name, fn }) =>
          sum(fn.metricThrottles() as Metric, `${name} throttles`),
        ),
      }),
      new GraphWidget({
        title: 'Function duration (p99 ms)',
        width,
        left: [...props.workers, ...props.apiFunctions].map(({ name, fn }) =>
          fn.metricDuration({ statistic: 'p99', label: name }),
        ),
      }),
    );
  }
}
