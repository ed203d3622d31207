import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { CfnScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { StackConfig } from './config.ts';
import { DataTable } from './constructs/data-table.ts';
import { WorkQueues } from './constructs/work-queues.ts';
import { MailHttpApi } from './constructs/http-api.ts';
import { EmailProvider } from './constructs/email-provider.ts';
import { ServiceFunction } from './constructs/service-function.ts';
import { SmtpRelay } from './constructs/smtp-relay.ts';
import { AREA_NEEDS, ROUTES, UNMATCHED_ENTRY, type Area, type RouteEntry } from '../functions/routes.ts';
import { QUEUES, TIMERS, WORKERS, type Needs, type TimerEntry, type WorkerEntry } from '../functions/workers.ts';

/** Props of the mail stack. */
export interface MailStackProps extends StackProps {
  readonly config: StackConfig;
  /** The manifests; tests may pass their own. @default - functions/routes.ts and functions/workers.ts */
  readonly manifest?: { routes?: readonly RouteEntry[]; workers?: readonly WorkerEntry[]; timers?: readonly TimerEntry[] };
}

/** What the SMTP relay needs beyond the table: it runs the accept path only. */
const RELAY_NEEDS = { queues: ['send', 'events'] } as const satisfies Needs;

/** The whole service: composition only; rules live in layers/core. */
export class MailStack extends Stack {
  constructor(scope: Construct, id: string, props: MailStackProps) {
    super(scope, id, props);
    const { config } = props;
    const { table } = new DataTable(this, 'Data');
    const queues = new WorkQueues(this, 'Queues', { queues: QUEUES });

    const scheduleGroup = new CfnScheduleGroup(this, 'ScheduleGroup', { name: `${this.stackName}-schedules` });
    const schedulerRole = new Role(this, 'SchedulerRole', { assumedBy: new ServicePrincipal('scheduler.amazonaws.com') });
    for (const { queue } of queues.byName.values()) queue.grantSendMessages(schedulerRole);

    const api = new MailHttpApi(this, 'Http');
    const provider = new EmailProvider(this, 'Provider', { eventsUrl: `${api.api.apiEndpoint}/provider-events/ses` });

    // Signs unsubscribe and preference links; generated once per deployment, resolved at deploy time.
    const tokenSecret = new Secret(this, 'LinkSigningSecret', { generateSecretString: { passwordLength: 48, excludePunctuation: true } });
    const environment: Record<string, string> = {
      CLOUD: String(config.cloud),
      DELIVERY_REGIONS: config.deliveryRegions.join(','),
      PROVIDER_RATE_PER_SECOND: String(config.providerRatePerSecond),
      API_RATE_LIMIT_PER_MINUTE: String(config.apiRateLimitPerMinute),
      SCHEDULER_MODE: 'aws',
      SCHEDULER_GROUP: scheduleGroup.name!,
      SCHEDULER_ROLE_ARN: schedulerRole.roleArn,
      SES_CONFIGURATION_SET: provider.configurationSet.configurationSetName,
      PUBLIC_BASE_URL: api.api.apiEndpoint,
      APP_URL: api.api.apiEndpoint,
      POWERTOOLS_SERVICE_NAME: 'mailstack',
    };

    const sendPolicy = new PolicyStatement({
      actions: ['ses:SendEmail', 'ses:SendRawEmail'],
      resources: [
        this.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' }),
        this.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: provider.configurationSet.configurationSetName }),
      ],
    });
    // Least privilege from the manifests: each function gets the table and exactly what it declares.
    const wire = (fn: ServiceFunction, needs: Needs = {}): ServiceFunction => {
      fn.bindTable(table);
      for (const name of needs.queues ?? []) fn.bindQueue(queues.get(name), QUEUES[name].env);
      if (needs.scheduler) {
        fn.addToRolePolicy(new PolicyStatement({
          actions: ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule', 'scheduler:GetSchedule'],
          resources: [this.formatArn({ service: 'scheduler', resource: 'schedule', resourceName: `${scheduleGroup.name}/*` })],
        }));
        fn.addToRolePolicy(new PolicyStatement({ actions: ['iam:PassRole'], resources: [schedulerRole.roleArn] }));
      }
      if (needs.linkSecret) fn.addEnvironment('TOKEN_SECRET', tokenSecret.secretValue.unsafeUnwrap());
      if (needs.sesIdentities) {
        fn.addToRolePolicy(new PolicyStatement({
          actions: ['ses:CreateEmailIdentity', 'ses:GetEmailIdentity', 'ses:DeleteEmailIdentity', 'ses:PutEmailIdentityMailFromAttributes'],
          resources: [this.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' })],
        }));
      }
      if (needs.sesSending) fn.addToRolePolicy(sendPolicy);
      return fn;
    };

    // The relay runs the accept path only: no token secret, scheduler or provider settings.
    const relayEnvironment = Object.fromEntries(['CLOUD', 'DELIVERY_REGIONS', 'PROVIDER_RATE_PER_SECOND', 'API_RATE_LIMIT_PER_MINUTE', 'PUBLIC_BASE_URL', 'APP_URL', 'POWERTOOLS_SERVICE_NAME']
      .map((name) => [name, environment[name]!]));
    new SmtpRelay(this, 'Smtp', {
      table,
      queues: RELAY_NEEDS.queues.map((name) => ({ queue: queues.get(name), env: QUEUES[name].env })),
      environment: relayEnvironment,
      tlsSecretName: config.smtp.tlsSecretName,
      ...(config.smtp.hostname ? { hostname: config.smtp.hostname } : {}),
      desiredCount: config.smtp.desiredCount,
      maxCount: config.smtp.maxCount,
    });

    const functions = new Construct(this, 'Functions');
    const byArea = new Map<Area, ServiceFunction>();
    api.addRoutes((area) => {
      let fn = byArea.get(area);
      if (!fn) {
        fn = wire(new ServiceFunction(functions, area, { entry: `${area}/index`, environment }), AREA_NEEDS[area]);
        byArea.set(area, fn);
      }
      return fn;
    }, props.manifest?.routes ?? ROUTES);
    // Unknown routes answer through the error catalog, as locally (this function touches no data).
    api.addDefaultRoute(new ServiceFunction(functions, 'unmatched', { entry: UNMATCHED_ENTRY, environment: {} }));
    const workers = new Construct(this, 'Workers');
    for (const worker of props.manifest?.workers ?? WORKERS) {
      const fn = wire(new ServiceFunction(workers, worker.name, { entry: worker.entry, environment, timeout: Duration.seconds(50) }), worker.needs);
      fn.addEventSource(new SqsEventSource(queues.get(worker.queue), { batchSize: worker.batchSize ?? 10, reportBatchItemFailures: true }));
    }
    const timers = new Construct(this, 'Timers');
    for (const timer of props.manifest?.timers ?? TIMERS) {
      const fn = wire(new ServiceFunction(timers, timer.name, { entry: timer.entry, environment, timeout: Duration.seconds(60) }), timer.needs);
      new Rule(timers, `${timer.name}-every`, { schedule: Schedule.rate(Duration.minutes(timer.everyMinutes)), targets: [new LambdaFunction(fn)] });
    }
  }
}
