import { Annotations, CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { CfnScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { derivedNames, type StackConfig } from './config.ts';
import { DataTable } from './constructs/data-table.ts';
import { WorkQueues } from './constructs/work-queues.ts';
import { MailHttpApi } from './constructs/http-api.ts';
import { EmailProvider } from './constructs/email-provider.ts';
import { ServiceFunction } from './constructs/service-function.ts';
import { SmtpRelay } from './constructs/smtp-relay.ts';
import { Operations } from './constructs/operations.ts';
import { ContentBucket } from './constructs/content-bucket.ts';
import { acknowledge, nagRegion } from './constructs/acknowledge.ts';
import { DashboardApi } from './constructs/dashboard-api.ts';
import { InboundMail } from './constructs/inbound-mail.ts';
import { sendWorkerConcurrency } from './send-capacity.ts';
import { INBOUND_RAW_PREFIX, MAILBOX_CONTENT_PREFIX } from '@mailstack/core/content-keys';
import { tenantNamePrefix } from '@mailstack/core/adapters/aws/sesv2-tenants';
import {
  AREA_FUNCTIONS_ENV,
  areaNeeds,
  ROUTES,
  UNMATCHED_ENTRY,
  type Area,
  type RouteEntry,
} from '../functions/routes.ts';
import {
  QUEUES,
  SCHEDULED_QUEUES,
  TABLE_ACTIONS,
  TIMERS,
  WORKERS,
  consumedQueues,
  queueVisibilitySeconds,
  workerTimeoutSeconds,
  type Needs,
  type ObjectAccess,
  type QueueName,
  type TimerEntry,
  type WorkerEntry,
} from '../functions/workers.ts';

/** Props of the mail stack. */
export interface MailStackProps extends StackProps {
  readonly config: StackConfig;
  /** The manifests; tests may pass their own. @default - functions/routes.ts and functions/workers.ts */
  readonly manifest?: {
    routes?: readonly RouteEntry[];
    workers?: readonly WorkerEntry[];
    timers?: readonly TimerEntry[];
  };
}

/**
 * What the dashboard needs beyond the table: it sends the service's own mail (invitations, sign-in
 * links) through the accept path, records audience events, registers sending domains, and stops
 * automations (their running runs wind down through the automations queue).
 */
const DASHBOARD_NEEDS = {
  table: ['get', 'query', 'batchGet', 'put', 'update', 'delete', 'batchWrite', 'transactWrite'],
  queues: ['send', 'events', 'fanout', 'webhooks', 'automations'],
  scheduler: true,
  sesIdentities: true,
  linkSecret: true,
  contentStore: true,
  mailboxStore: true,
} as const satisfies Needs;

/** What the inbound Lambda needs beyond the table (and reading the receipt rule's raw copies): it stores mailbox mail and records email.received. */
const INBOUND_NEEDS = {
  table: ['get', 'batchGet', 'update', 'transactWrite'],
  queues: ['events'],
  mailboxStore: ['put', 'get'],
} as const satisfies Needs;

/** What the SMTP relay needs beyond the table: it runs the accept path only. */
const RELAY_NEEDS = { queues: ['send', 'events'], contentStore: ['put'] } as const satisfies Needs;
/** The S3 actions of a store need (`true`: put, get and delete). */
const objectActions = (
  access: true | readonly ObjectAccess[],
): ('s3:PutObject' | 's3:GetObject' | 's3:DeleteObject')[] =>
  (access === true ? (['put', 'get', 'delete'] as const) : access).map(
    (a) => (({ put: 's3:PutObject', get: 's3:GetObject', delete: 's3:DeleteObject' }) as const)[a],
  );

/** The queue SES events arrive on. */
const PROVIDER_EVENTS_QUEUE = 'provider-events';

/** The whole service: composition only; rules live in layers/core. */
export class MailStack extends Stack {
  constructor(scope: Construct, id: string, props: MailStackProps) {
    // The stack deploys where it delivers: SES, its configuration sets and the event topic are regional.
    super(scope, id, { ...props, env: { region: props.config.deliveryRegions[0], ...props.env } });
    const { config } = props;
    // X-Ray active tracing is opt-in (mailstack:tracing): each traced invocation is billed.
    const tracing = config.tracing;
    const { table } = new DataTable(this, 'Data', config.table);
    new CfnOutput(this, 'TableName', {
      value: table.tableName,
      description: 'The data table (the admin CLI takes it as --table)',
    });
    const workerEntries = props.manifest?.workers ?? WORKERS;
    // Only queues something consumes exist: a declared need for any other queue is left out (the
    // core skips a queue whose URL is unset), so no queue fills without a reader.
    const queues = new WorkQueues(this, 'Queues', {
      queues: Object.fromEntries(consumedQueues(workerEntries).map((name) => [name, QUEUES[name]])),
      visibilityTimeoutSeconds: (name) => {
        const visibility = queueVisibilitySeconds(name as QueueName, config.queueVisibilitySeconds, workerEntries);
        // Lambda refuses an event source whose queue hides a message for less than the function's timeout.
        const longest = Math.max(0, ...workerEntries.filter((w) => w.queue === name).map(workerTimeoutSeconds));
        if (visibility !== undefined && visibility < longest)
          throw new Error(
            `mailstack:queueVisibilitySeconds is ${visibility}, below the ${longest} s timeout of the worker of the ${name} queue: Lambda refuses an SQS event source whose visibility is shorter than its function's timeout`,
          );
        return visibility;
      },
    });

    const scheduleGroup = new CfnScheduleGroup(this, 'ScheduleGroup', {
      name: derivedNames(this.stackName).scheduleGroup,
    });
    // Only this account's schedules may act as the role (confused-deputy protection).
    const schedulerRole = new Role(this, 'SchedulerRole', {
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com', {
        conditions: { StringEquals: { 'aws:SourceAccount': this.account } },
      }),
    });
    // Schedules deliver to these queues only (a scheduled email, a broadcast's later page, a webhook
    // retry, an automation step).
    const scheduledQueues = SCHEDULED_QUEUES.filter((name) => queues.byName.has(name)).map((name) => queues.get(name));
    if (scheduledQueues.length > 0)
      schedulerRole.addToPolicy(
        new PolicyStatement({ actions: ['sqs:SendMessage'], resources: scheduledQueues.map((q) => q.queueArn) }),
      );

    const api = new MailHttpApi(this, 'Http', { throttle: config.apiThrottle, customDomain: config.customDomain });
    const provider = new EmailProvider(this, 'Provider', {
      eventsQueue: queues.get(PROVIDER_EVENTS_QUEUE),
      configurationSetName: derivedNames(this.stackName).configurationSet,
    });

    // Signs unsubscribe and preference links: a keyring {"current":"k1","k1":"..."} generated once,
    // read at run time by the functions that sign or check links, and kept with the table.
    const linkSecret = new Secret(this, 'LinkSigningSecret', {
      description:
        'Keyring that signs unsubscribe and preference links; rotate by adding a key and pointing "current" at it',
      generateSecretString: {
        secretStringTemplate: JSON.stringify({ current: 'k1' }),
        generateStringKey: 'k1',
        passwordLength: 48,
        excludePunctuation: true,
      },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(linkSecret, {
      'AwsSolutions-SMG4':
        'links already sent must keep working: keys rotate by adding one to the keyring, never by replacement',
    });
    // Message content too large for a row (bodies and attachments past CONTENT_INLINE_MAX_BYTES).
    const content = new ContentBucket(this, 'Content');
    // The dashboard's own HTTP API (a separate origin from the email API): its address is in every
    // function's environment, for the links in owner notices and in events (dashboard_url).
    const dashboard = new DashboardApi(this, 'Dashboard');
    const environment: Record<string, string> = {
      CLOUD: String(config.cloud),
      DELIVERY_REGIONS: config.deliveryRegions.join(','),
      PROVIDER_RATE_PER_SECOND: String(config.providerRatePerSecond),
      API_RATE_LIMIT_PER_MINUTE: String(config.apiRateLimitPerMinute),
      // The team guardrail's lines (the accept path refuses a paused team's sends; the provider-events worker pauses).
      BOUNCE_RATE_WARNING: String(config.deliverability.bounceRateWarning),
      BOUNCE_RATE_PAUSE: String(config.deliverability.bounceRatePause),
      COMPLAINT_RATE_WARNING: String(config.deliverability.complaintRateWarning),
      COMPLAINT_RATE_PAUSE: String(config.deliverability.complaintRatePause),
      DELIVERABILITY_MIN_SENT: String(config.deliverability.minSent),
      SCHEDULER_MODE: 'aws',
      SCHEDULER_GROUP: scheduleGroup.name!,
      SCHEDULER_ROLE_ARN: schedulerRole.roleArn,
      SES_CONFIGURATION_SET: provider.configurationSetName,
      // The tag value of every SES identity the stack creates (and the only ones it deletes).
      STACK_NAME: this.stackName,
      // Each team sends as its own SES tenant (mailstack:sesTenants), with a configuration set named from the stack's.
      SES_TENANTS: String(config.sesTenants),
      SES_EVENTS_TOPIC_ARN: provider.topic.topicArn,
      PUBLIC_BASE_URL: api.publicUrl,
      APP_URL: api.publicUrl,
      DASHBOARD_URL: dashboard.api.apiEndpoint,
      POWERTOOLS_SERVICE_NAME: 'mailstack',
      // Webhooks from the cloud go to public https targets only (checked after DNS resolution).
      WEBHOOK_TARGETS: 'public',
      WEBHOOK_DELIVERY_RETENTION_DAYS: String(config.webhookDeliveryRetentionDays),
      // Emails and their events expire this many days after they were written (0: kept).
      EMAIL_RETENTION_DAYS: String(config.emailRetentionDays),
      // Tracking links on each domain's own tracking host (its CNAME names this target); empty: the API origin.
      TRACKING_CNAME_TARGET: config.trackingCnameTarget,
      // The service's own mail (dashboard mail, owner notices) goes out as this team, from this sender.
      SYSTEM_TEAM_ID: config.systemTeamId,
      SYSTEM_SENDER: config.systemSender,
    };

    // The inbound receipt rule the domain use cases keep naming the held domains.
    const inboundRuleSetName = config.inbound.ruleSetName ?? derivedNames(this.stackName).inboundRuleSet;
    const inboundRuleName = derivedNames(this.stackName).inboundRule;
    const receiptRulePolicy = new PolicyStatement({
      actions: ['ses:DescribeReceiptRule', 'ses:UpdateReceiptRule'],
      resources: [
        this.formatArn({ service: 'ses', resource: 'receipt-rule-set', resourceName: inboundRuleSetName }),
        this.formatArn({
          service: 'ses',
          resource: 'receipt-rule-set',
          resourceName: `${inboundRuleSetName}:receipt-rule/${inboundRuleName}`,
        }),
      ],
    });
    const identitiesAtRunTime = {
      [`AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:${nagRegion(this)}:<AWS::AccountId>:identity/*]`]:
        'teams add their sending domains at run time, so identities cannot be named at deploy time',
    };
    const sendPolicy = new PolicyStatement({
      // SES v2 SendEmail (raw content included) is authorized as ses:SendEmail, on the sending
      // identity and on the configuration set it names.
      actions: ['ses:SendEmail'],
      resources: [
        this.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' }),
        this.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: provider.configurationSetName }),
      ],
    });
    // With SES tenants on, the send workers make each team's tenant and configuration set ready
    // before its first send (names start with the stack's prefix) and send as it.
    const tenantPrefix = tenantNamePrefix(provider.configurationSetName);
    const tenantResources = [
      this.formatArn({ service: 'ses', resource: 'tenant', resourceName: `${tenantPrefix}*` }),
      this.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: `${tenantPrefix}*` }),
    ];
    if (config.sesTenants) sendPolicy.addResources(...tenantResources);
    const tenantPolicy = config.sesTenants
      ? new PolicyStatement({
          actions: [
            'ses:CreateTenant',
            'ses:GetTenant',
            'ses:CreateTenantResourceAssociation',
            'ses:CreateConfigurationSet',
            'ses:CreateConfigurationSetEventDestination',
            'ses:TagResource',
            'ses:UpdateReputationEntityPolicy',
          ],
          resources: [
            ...tenantResources,
            // An association names the team's sending identity; the policy is one SES manages.
            this.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' }),
            `arn:${this.partition}:ses:${this.region}:aws:reputation-policy/*`,
          ],
        })
      : undefined;
    const tenantsAtRunTime = {
      [`AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:${nagRegion(this)}:<AWS::AccountId>:tenant/${tenantPrefix}*]`]:
        "each team's tenant is made at run time, named with the stack's prefix and the team id",
      [`AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:${nagRegion(this)}:<AWS::AccountId>:configuration-set/${tenantPrefix}*]`]:
        "each team's configuration set is made at run time, named with the stack's prefix and the team id",
      [`AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:ses:${nagRegion(this)}:aws:reputation-policy/*]`]:
        "SES's own reputation policies (none, standard, strict), which a tenant is set to",
    };
    // The senders read the account's state (maximum send rate, quota, sending enabled): GetAccount names no resource.
    const accountPolicy = new PolicyStatement({ actions: ['ses:GetAccount'], resources: ['*'] });
    // Least privilege from the manifests: each function gets the table and exactly what it declares.
    const wire = (fn: ServiceFunction, needs: Needs = {}): ServiceFunction => {
      fn.bindTable(table, [...new Set((needs.table ?? []).flatMap((access) => TABLE_ACTIONS[access]))]);
      for (const name of needs.queues ?? []) {
        if (queues.byName.has(name)) fn.bindQueue(queues.get(name), QUEUES[name].env);
      }
      if (needs.scheduler) {
        const uses = needs.scheduler === true ? (['schedule', 'cancel'] as const) : needs.scheduler;
        fn.addToRolePolicy(
          new PolicyStatement({
            // Scheduling what is due within the scheduler's minute replaces any schedule of its name
            // (queue-delay-scheduler.ts): a function that schedules may delete one too.
            actions: [
              ...new Set(
                uses.flatMap((use) =>
                  use === 'schedule'
                    ? ['scheduler:CreateSchedule', 'scheduler:DeleteSchedule']
                    : ['scheduler:DeleteSchedule'],
                ),
              ),
            ],
            resources: [
              this.formatArn({ service: 'scheduler', resource: 'schedule', resourceName: `${scheduleGroup.name}/*` }),
            ],
          }),
        );
        fn.addToRolePolicy(new PolicyStatement({ actions: ['iam:PassRole'], resources: [schedulerRole.roleArn] }));
        acknowledge(fn, {
          [`AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:scheduler:${nagRegion(this)}:<AWS::AccountId>:schedule/${scheduleGroup.name}/*]`]:
            "one schedule per scheduled email, named at run time, only in this stack's group",
        });
      }
      if (needs.linkSecret) {
        fn.addToRolePolicy(
          new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [linkSecret.secretArn] }),
        );
        fn.addEnvironment('LINK_SECRET_ARN', linkSecret.secretArn);
      }
      if (needs.contentStore) content.grant(fn, objectActions(needs.contentStore));
      if (needs.mailboxStore) content.grant(fn, objectActions(needs.mailboxStore), MAILBOX_CONTENT_PREFIX);
      if (needs.contentStore || needs.mailboxStore) fn.addEnvironment('CONTENT_BUCKET', content.bucket.bucketName);
      if (needs.sesIdentities) {
        fn.addToRolePolicy(
          new PolicyStatement({
            actions: [
              'ses:CreateEmailIdentity',
              'ses:GetEmailIdentity',
              'ses:DeleteEmailIdentity',
              'ses:PutEmailIdentityMailFromAttributes',
              // CreateEmailIdentity with Tags (the stack's tag) needs TagResource too.
              'ses:TagResource',
            ],
            resources: [this.formatArn({ service: 'ses', resource: 'identity', resourceName: '*' })],
          }),
        );
      }
      if (needs.sesIdentities || needs.inboundRule) {
        fn.addToRolePolicy(receiptRulePolicy);
        fn.addEnvironment('INBOUND_RULE_SET_NAME', inboundRuleSetName);
        fn.addEnvironment('INBOUND_RULE_NAME', inboundRuleName);
      }
      if (needs.sesSending) {
        fn.addToRolePolicy(sendPolicy);
        fn.addToRolePolicy(accountPolicy);
      }
      if (needs.sesSending && tenantPolicy) {
        fn.addToRolePolicy(tenantPolicy);
        acknowledge(fn, tenantsAtRunTime);
      }
      if (needs.sesIdentities || needs.sesSending) acknowledge(fn, identitiesAtRunTime);
      return fn;
    };

    // The relay runs the accept path only: no token secret, scheduler or provider settings. It is
    // opt-in (mailstack:smtpRelay): its load balancer and tasks cost by the hour, mail or not.
    const relayEnvironment = Object.fromEntries(
      [
        'CLOUD',
        'DELIVERY_REGIONS',
        'PROVIDER_RATE_PER_SECOND',
        'API_RATE_LIMIT_PER_MINUTE',
        'BOUNCE_RATE_WARNING',
        'BOUNCE_RATE_PAUSE',
        'COMPLAINT_RATE_WARNING',
        'COMPLAINT_RATE_PAUSE',
        'DELIVERABILITY_MIN_SENT',
        'PUBLIC_BASE_URL',
        'APP_URL',
        'DASHBOARD_URL',
        'POWERTOOLS_SERVICE_NAME',
      ].map((name) => [name, environment[name]!]),
    );
    if (config.smtp.enabled)
      new SmtpRelay(this, 'Smtp', {
        table,
        content,
        queues: RELAY_NEEDS.queues
          .filter((name) => queues.byName.has(name))
          .map((name) => ({ queue: queues.get(name), env: QUEUES[name].env })),
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
        fn = wire(
          new ServiceFunction(functions, area, { entry: `${area}/index`, environment, tracing }),
          areaNeeds(area),
        );
        byArea.set(area, fn);
      }
      return fn;
    }, props.manifest?.routes ?? ROUTES);
    // Unknown routes answer through the error catalog, as locally (this function touches no data).
    // A path that names a route once its runs of slashes read as one (`//emails`, from a base URL
    // with a trailing slash) reaches no route of API Gateway: this function passes it on to the
    // route's function (it may invoke each area's function, and touches nothing else).
    const unmatched = new ServiceFunction(functions, 'unmatched', {
      entry: UNMATCHED_ENTRY,
      environment: {
        [AREA_FUNCTIONS_ENV]: Stack.of(this).toJsonString(
          Object.fromEntries([...byArea].map(([area, fn]) => [area, fn.functionName])),
        ),
      },
      tracing,
    });
    unmatched.addToRolePolicy(
      new PolicyStatement({
        actions: ['lambda:InvokeFunction'],
        resources: [...byArea.values()].map((fn) => fn.functionArn),
      }),
    );
    api.addDefaultRoute(unmatched);
    // The dashboard: its own function behind its own HTTP API.
    const dashboardFn = wire(
      new ServiceFunction(functions, 'dashboard', { tracing, entry: 'dashboard/index', environment }),
      DASHBOARD_NEEDS,
    );
    dashboard.serveWith(dashboardFn);

    const workers = new Construct(this, 'Workers');
    // Each worker that sends through SES gets the concurrency the rate needs (or the figure set);
    // one that cannot hold the rate is a synthesis warning, with what would.
    const sendingConcurrency = (worker: WorkerEntry): number => {
      const capacity = sendWorkerConcurrency(config, worker);
      if (capacity.holds < config.providerRatePerSecond)
        Annotations.of(workers).addWarningV2(
          `mailstack:sendCapacity:${worker.name}`,
          `${worker.name} runs at most ${capacity.concurrency} invocations at once, which hold about ${capacity.holds} sends a second, under mailstack:providerRatePerSecond (${config.providerRatePerSecond}); the rate needs ${capacity.needed} (${config.sendCapacity.override === undefined ? 'raise mailstack:sendConcurrencyCeiling' : 'raise or unset mailstack:sendConcurrency'}; docs/aws.md, Sending at high rates)`,
        );
      return capacity.concurrency;
    };
    const background: { name: string; fn: ServiceFunction }[] = [];
    for (const worker of workerEntries) {
      // Owner notices (webhook endpoints, mailbox approvals) link to the dashboard's pages.
      const fn = wire(
        new ServiceFunction(workers, worker.name, {
          entry: worker.entry,
          environment,
          tracing,
          timeout: Duration.seconds(workerTimeoutSeconds(worker)),
        }),
        worker.needs,
      );
      background.push({ name: worker.name, fn });
      fn.addEventSource(
        new SqsEventSource(queues.get(worker.queue), {
          batchSize: worker.batchSize ?? 10,
          reportBatchItemFailures: true,
          // Pacing never waits long inside Lambda (a place further ahead re-queues with a delay), and
          // every worker that sends through SES (transactional and broadcast) is capped at what the
          // rate needs, so no backlog scales it toward the account's concurrency.
          ...(worker.needs?.sesSending ? { maxConcurrency: sendingConcurrency(worker) } : {}),
        }),
      );
    }
    // Inbound mail for the mailboxes: the receipt rule stores the raw message, then invokes this.
    const inboundScope = new Construct(this, 'Inbound');
    const receiver = wire(
      new ServiceFunction(inboundScope, 'receive-mail', {
        entry: 'inbound/receive-mail',
        environment,
        tracing,
        timeout: Duration.seconds(60),
      }),
      INBOUND_NEEDS,
    );
    content.grant(receiver, ['s3:GetObject'], INBOUND_RAW_PREFIX);
    background.push({ name: 'receive-mail', fn: receiver });
    // SES invokes it asynchronously: an invocation that still fails after Lambda's own retries is
    // kept with its event in this queue (alarmed) for a re-drive, never dropped.
    const inboundFailed = new Queue(inboundScope, 'failed', {
      retentionPeriod: Duration.days(14),
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    acknowledge(inboundFailed, {
      'AwsSolutions-SQS3':
        "this queue is itself the failure destination of the inbound function's asynchronous invocations",
    });
    receiver.configureAsyncInvoke({
      onFailure: new SqsDestination(inboundFailed),
      retryAttempts: 2,
      maxEventAge: Duration.hours(6),
    });
    const receiving = new InboundMail(this, 'Receiving', {
      content,
      receiver,
      ruleSetName: inboundRuleSetName,
      ruleName: inboundRuleName,
      addToExistingRuleSet: config.inbound.ruleSetName !== undefined,
    });
    new CfnOutput(this, 'InboundRuleSetName', {
      value: receiving.ruleSetName,
      description:
        'The SES receipt rule set holding the mailbox rule; an account has one active set per region: activate it (aws ses set-active-receipt-rule-set --rule-set-name <this>) unless the stack added its rule to your active set',
    });

    const timers = new Construct(this, 'Timers');
    for (const timer of props.manifest?.timers ?? TIMERS) {
      const fn = wire(
        new ServiceFunction(timers, timer.name, {
          entry: timer.entry,
          environment,
          tracing,
          timeout: Duration.seconds(60),
        }),
        timer.needs,
      );
      background.push({ name: timer.name, fn });
      new Rule(timers, `${timer.name}-every`, {
        schedule: Schedule.rate(Duration.minutes(timer.everyMinutes)),
        targets: [new LambdaFunction(fn)],
      });
    }

    new Operations(this, 'Operations', {
      operatorTopicName: config.operatorTopicName,
      api: api.api,
      dashboardApi: dashboard.api,
      workers: background,
      apiFunctions: [...[...byArea].map(([name, fn]) => ({ name, fn })), { name: 'unmatched', fn: unmatched }],
      queues: [...queues.byName].map(([name, q]) => ({ name, ...q })),
      eventTopics: [{ name: 'ses-events', topic: provider.topic, deadLetterQueue: provider.deliveryDeadLetterQueue }],
      failedInvocations: [{ name: 'receive-mail', queue: inboundFailed }],
    });
  }
}
