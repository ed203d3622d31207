import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App, NestedStack, Validations } from 'aws-cdk-lib';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AwsSolutionsChecks } from 'cdk-nag';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { MailStack } from '../../lib/mail-stack.ts';
import { readStackConfig } from '../../lib/config.ts';
import { AREA_FUNCTIONS_ENV, AREAS, ROUTES, areaNeeds, routeKey } from '../../functions/routes.ts';
import { QUEUES, WORKERS, consumedQueues, workerTimeoutSeconds } from '../../functions/workers.ts';
import {
  QUEUE_AGE_ALARM_PERIODS,
  SES_BOUNCE_RATE_ALARM,
  SES_COMPLAINT_RATE_ALARM,
  queueAgeAlarmSeconds,
} from '../../lib/constructs/operations.ts';
import { NONCURRENT_VERSION_DAYS } from '../../lib/constructs/content-bucket.ts';
import { ROUTE_THROTTLES } from '../../lib/constructs/http-api.ts';
import { TABLE } from '@mailstack/core/table/definition';
import { EMAIL_CONTENT_RETENTION_DAYS } from '@mailstack/core/limits';
import { INBOUND_RAW_RETENTION_DAYS } from '@mailstack/core/content-keys';

/** The real workers plus a worker and a timer on an existing entry, so the generic wiring is exercised whatever the manifest holds today. */
const TEST_MANIFEST = {
  workers: [
    ...WORKERS,
    {
      name: 'probe-worker',
      queue: 'send' as const,
      entry: 'usage/index',
      batchSize: 5,
      timeoutSeconds: 40,
      needs: { queues: ['send' as const], sesSending: true, linkSecret: true },
    },
  ],
  timers: [{ name: 'probe-timer', entry: 'usage/index', everyMinutes: 1 }],
};

describe('MailStack', () => {
  let template: Template;
  let stack: MailStack;
  /** cdk-nag AwsSolutions findings neither fixed nor acknowledged, as "rule: construct path". */
  let nagFindings: string[] = [];
  const outdir = mkdtempSync(join(tmpdir(), 'mail-stack-'));

  /** The Lambda function of an area (its logical id starts with Functions<area without dashes>). */
  const areaFunction = (area: string) => {
    const prefix = `Functions${area.replaceAll('-', '')}`;
    const found = Object.entries(template.findResources('AWS::Lambda::Function')).filter(
      ([id]) => id.startsWith(prefix) && !id.slice(prefix.length).match(/^[a-z]/),
    );
    expect(found, area).toHaveLength(1);
    return found[0]![1];
  };
  /** Every action the function's role may take. */
  const actionsOfRole = (fn: any): string[] => {
    const role = fn.Properties.Role['Fn::GetAtt'][0];
    return Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((p) => p.Properties.Roles.some((r: any) => r.Ref === role))
      .flatMap((p) => p.Properties.PolicyDocument.Statement.flatMap((s: any) => [s.Action].flat()));
  };

  // One synthesis for the whole file, with the AwsSolutions pack as a validation plugin. Bundling
  // is skipped here: test/infra/bundled-assets.test.ts builds and runs the real bundles.
  beforeAll(() => {
    const app = new App({
      outdir,
      context: {
        'aws:cdk:bundling-stacks': [],
        'mailstack:deliveryRegions': 'eu-west-1',
        'mailstack:stackName': 'Staging',
        'mailstack:sendConcurrency': 3,
        'mailstack:domainName': 'mail-api.example.com',
        'mailstack:certificateArn': 'arn:aws:acm:eu-west-1:123456789012:certificate/abc-123',
        'mailstack:operatorTopicName': 'staging-pager',
        'mailstack:apiThrottleRatePerSecond': 25,
        'mailstack:apiThrottleBurst': 50,
        // The relay is opt-in; on here so its wiring is checked (test/infra/opt-in-costs.test.ts checks it off).
        'mailstack:smtpRelay': true,
        // SES tenants are opt-in too; on here so their grants are checked (opt-in-costs checks them off).
        'mailstack:sesTenants': true,
      },
    });
    const config = readStackConfig((k) => app.node.tryGetContext(k));
    stack = new MailStack(app, config.stackName, { config, manifest: TEST_MANIFEST });
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    try {
      app.synth();
    } catch (error) {
      const report = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8'));
      nagFindings = report.pluginReports.flatMap((p: any) =>
        p.violations.flatMap((v: any) => v.violatingConstructs.map((c: any) => `${v.ruleName}: ${c.constructPath}`)),
      );
      if (nagFindings.length === 0) throw error;
    }
    template = Template.fromJSON(JSON.parse(readFileSync(join(outdir, `${stack.stackName}.template.json`), 'utf8')));
  }, 120_000);

  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it('synthesizes without error annotations', () => {
    expect(stack.node.findAll().flatMap((c) => c.node.metadata.filter((m) => m.type === 'aws:cdk:error'))).toEqual([]);
  });

  it('builds the table from the core definition: keys, every GSI and the TTL attribute', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
      GlobalSecondaryIndexes: TABLE.indexes.map((i) =>
        Match.objectLike({
          IndexName: i.name,
          KeySchema: [
            { AttributeName: i.partitionKey, KeyType: 'HASH' },
            { AttributeName: i.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        }),
      ),
    });
  });

  /** The nested stack holding the email API's manifest routes, their integrations and permissions. */
  const routeStack = () => {
    const nested = stack.node.findAll().filter((c): c is NestedStack => c instanceof NestedStack);
    expect(nested.map((n) => n.node.path)).toEqual([`${stack.stackName}/Http/Routes`]);
    return Template.fromStack(nested[0]!);
  };

  /** The routes of the email API (the dashboard has its own API): the manifest's, and `$default` beside the API. */
  const apiRoutes = () => {
    const [apiId] = Object.entries(template.findResources('AWS::ApiGatewayV2::Api')).find(
      ([, a]) => a.Properties.Description === 'Resend-compatible email API',
    )!;
    return [
      ...Object.values(routeStack().findResources('AWS::ApiGatewayV2::Route')),
      ...Object.values(template.findResources('AWS::ApiGatewayV2::Route')).filter(
        (r) => r.Properties.ApiId.Ref === apiId,
      ),
    ];
  };

  it('declares one API route per manifest entry, with the exact route key, and the $default route', () => {
    const routes = apiRoutes()
      .map((r) => r.Properties.RouteKey)
      .sort();
    expect(routes).toEqual([...ROUTES.map(routeKey), '$default'].sort());
  });

  it("stays well inside CloudFormation's 500 resources a stack: the routes in a nested stack of their own, one invoke permission per function for the API, not one per route", () => {
    const resources = Object.keys(
      JSON.parse(readFileSync(join(outdir, `${stack.stackName}.template.json`), 'utf8')).Resources,
    );
    expect(resources.length).toBeLessThan(400);
    const routes = routeStack();
    // Every route of the nested stack targets the email API, passed in from the parent stack.
    const nestedResources = Object.keys(routes.toJSON().Resources);
    expect(nestedResources.length).toBeLessThan(400);
    const apiPermissions = Object.values(routes.findResources('AWS::Lambda::Permission')).filter(
      (p) => p.Properties.Principal === 'apigateway.amazonaws.com',
    );
    expect(apiPermissions.length).toBeGreaterThan(0);
    expect(apiPermissions.length).toBeLessThan(ROUTES.length / 2);
    expect(
      Object.values(template.findResources('AWS::Lambda::Permission')).filter(
        (p) => p.Properties.Principal === 'apigateway.amazonaws.com',
      ),
    ).toHaveLength(2); // the $default routes' of the email API and of the dashboard, beside their APIs
  });

  it("serves the MCP server's OAuth discovery and authorization server at the API base URL (not the dashboard's origin)", () => {
    const routes = apiRoutes().map((r) => r.Properties.RouteKey);
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /.well-known/oauth-protected-resource',
        'GET /.well-known/oauth-authorization-server',
        'POST /oauth/register',
        'GET /oauth/authorize',
        'POST /oauth/token',
        'POST /oauth/revoke',
        'GET /oauth/grants',
        'DELETE /oauth/grants/{id}',
      ]),
    );
    // Its authorize step sends the person to the dashboard's origin for sign-in and consent.
    const dashboardApi = Object.entries(template.findResources('AWS::ApiGatewayV2::Api')).find(([, a]) =>
      String(a.Properties.Description).includes('dashboard'),
    )!;
    expect(areaFunction('oauth').Properties.Environment.Variables.DASHBOARD_URL['Fn::GetAtt'][0]).toBe(dashboardApi[0]);
  });

  it("serves each mailbox's MCP endpoint at /mcp/{mailbox} on the API base URL, from the mcp function, which links approval notices to the dashboard", () => {
    const routes = apiRoutes().map((r) => r.Properties.RouteKey);
    expect(routes).toEqual(
      expect.arrayContaining(['POST /mcp/{mailbox}', 'GET /mcp/{mailbox}', 'DELETE /mcp/{mailbox}']),
    );
    const dashboardApi = Object.entries(template.findResources('AWS::ApiGatewayV2::Api')).find(([, a]) =>
      String(a.Properties.Description).includes('dashboard'),
    )!;
    expect(areaFunction('mcp').Properties.Environment.Variables.DASHBOARD_URL['Fn::GetAtt'][0]).toBe(dashboardApi[0]);
  });

  it('creates only the queues a worker consumes, each with its own dead-letter queue, 14 days of retention and TLS required', () => {
    const consumed = consumedQueues(TEST_MANIFEST.workers);
    // Webhook delivery consumes the events and webhooks queues.
    expect(consumed).toEqual(expect.arrayContaining(['send', 'provider-events', 'events', 'webhooks']));
    const queues = template.findResources('AWS::SQS::Queue');
    const withDlq = Object.values(queues).filter((q) => q.Properties?.RedrivePolicy);
    expect(withDlq).toHaveLength(consumed.length);
    for (const q of withDlq)
      expect(q.Properties).toMatchObject({
        RedrivePolicy: { maxReceiveCount: 5 },
        MessageRetentionPeriod: 14 * 24 * 3600,
      });
    // each work queue and its DLQ, plus the dead-letter queue of the SNS subscription and the inbound function's failure queue
    expect(Object.keys(queues)).toHaveLength(consumed.length * 2 + 2);
    const policies = Object.values(template.findResources('AWS::SQS::QueuePolicy')).map((p) =>
      JSON.stringify(p.Properties.PolicyDocument),
    );
    expect(policies.filter((p) => p.includes('"aws:SecureTransport":"false"'))).toHaveLength(
      Object.keys(queues).length,
    );
    // no function is handed a queue nothing reads
    const envs = Object.values(template.findResources('AWS::Lambda::Function')).map((f) =>
      Object.keys(f.Properties.Environment?.Variables ?? {}),
    );
    const unread = (Object.keys(QUEUES) as (keyof typeof QUEUES)[])
      .filter((q) => !consumed.includes(q))
      .map((q) => QUEUES[q].env);
    for (const env of envs) for (const name of unread) expect(env).not.toContain(name);
  });

  it('caps the concurrency of every worker that sends through SES, transactional and broadcast alike (event source maxConcurrency from context)', () => {
    const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping')).map((m) => m.Properties);
    const fromQueue = (name: string) =>
      mappings.filter(
        (m) =>
          JSON.stringify(m.EventSourceArn).includes(`Queues${name}`) &&
          !JSON.stringify(m.EventSourceArn).includes('dlq'),
      );
    const send = fromQueue('send');
    const broadcast = fromQueue('broadcast');
    expect(send.length).toBeGreaterThan(0);
    expect(broadcast).toHaveLength(1);
    for (const m of [...send, ...broadcast]) expect(m.ScalingConfig).toEqual({ MaximumConcurrency: 3 });
    // Whatever its queue: a worker allowed to send through SES never scales past the cap.
    const functions = template.findResources('AWS::Lambda::Function');
    const senders = mappings.filter((m) => actionsOfRole(functions[m.FunctionName.Ref]).includes('ses:SendEmail'));
    expect(senders.length).toBe(send.length + broadcast.length);
    for (const m of senders) expect(m.ScalingConfig).toEqual({ MaximumConcurrency: 3 });
  });

  it('feeds each worker from its queue with partial batch failures, and runs each timer on its rate', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      BatchSize: 5,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    template.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(1 minute)' });
  });

  it('runs every function on Node 22, ARM64, with the table and queues bound', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function')).filter((f) =>
      f.Properties.Runtime?.startsWith('nodejs'),
    );
    expect(functions.length).toBeGreaterThan(0);
    for (const f of functions.filter((f) => f.Properties.Environment?.Variables?.TABLE_NAME)) {
      expect(f.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'] });
      expect(Object.keys(f.Properties.Environment.Variables)).toEqual(
        expect.arrayContaining(['TABLE_NAME', 'DELIVERY_REGIONS', 'SES_CONFIGURATION_SET', 'SES_EVENTS_TOPIC_ARN']),
      );
      expect(f.Properties.Environment.Variables.DELIVERY_REGIONS).toBe('eu-west-1');
      expect(f.Properties.Environment.Variables.PUBLIC_BASE_URL).toBe('https://mail-api.example.com');
    }
  });

  it("grants SES sending only to the send workers, and identity management only to the domains, MCP and dashboard functions and those that send the service's own notices (inboxes, webhook deliveries)", () => {
    const policies = Object.values(template.findResources('AWS::IAM::Policy'));
    const actionsOf = (p: any): string[] =>
      p.Properties.PolicyDocument.Statement.flatMap((s: any) => [s.Action].flat());
    // send-email and the probe worker on the send queue, send-email-later on the later queue, send-broadcast-email on the broadcast queue (not the fan-out)
    const senders = policies
      .filter((p) => actionsOf(p).includes('ses:SendEmail'))
      .map((p) => JSON.stringify(p.Properties.Roles))
      .join();
    expect(policies.filter((p) => actionsOf(p).includes('ses:SendEmail'))).toHaveLength(4);
    expect(senders).toMatch(/sendemaillater/i);
    expect(senders).toMatch(/sendbroadcastemail/i);
    expect(senders).not.toMatch(/broadcastfanout/i);
    const registrars = policies
      .filter((p) => actionsOf(p).includes('ses:CreateEmailIdentity'))
      .map((p) => JSON.stringify(p.Properties.Roles));
    expect(registrars).toHaveLength(5);
    for (const name of [
      /Functionsdomains/,
      /Functionsmcp/,
      /Functionsdashboard/,
      /Functionsinboxes/,
      /Workersdeliverwebhooks/,
    ])
      expect(
        registrars.filter((r) => name.test(r)),
        String(name),
      ).toHaveLength(1);
    for (const p of policies) expect(actionsOf(p)).not.toContain('*');
    // Each identity is created with the stack's tag (CreateEmailIdentity's Tags need TagResource), and the
    // functions know the stack's name, so they delete only identities tagged with it.
    for (const p of policies.filter((p) => actionsOf(p).includes('ses:CreateEmailIdentity')))
      expect(actionsOf(p)).toContain('ses:TagResource');
    const functions = Object.values(template.findResources('AWS::Lambda::Function')) as any[];
    const managers = functions.filter((f) => /Functionsdomains/.test(JSON.stringify(f.Properties.Role)));
    expect(managers.length).toBeGreaterThan(0);
    for (const f of managers) expect(f.Properties.Environment.Variables.STACK_NAME).toBe(stack.stackName);
  });

  it("with SES tenants on, lets only the send workers make a team's tenant and configuration set (the stack's names) and send as it", () => {
    const policies = Object.values(template.findResources('AWS::IAM::Policy'));
    const statements = (p: any): any[] => p.Properties.PolicyDocument.Statement;
    const tenantStatements = policies.flatMap((p) =>
      statements(p)
        .filter((st) => [st.Action].flat().includes('ses:CreateTenant'))
        .map((st) => ({ roles: JSON.stringify(p.Properties.Roles), st })),
    );
    // The same workers that send (send-email, send-email-later, send-broadcast-email and the probe).
    expect(tenantStatements).toHaveLength(4);
    for (const { roles, st } of tenantStatements) {
      expect(roles).not.toMatch(/broadcastfanout|Functions/);
      expect([st.Action].flat().sort()).toEqual(
        [
          'ses:CreateConfigurationSet',
          'ses:CreateConfigurationSetEventDestination',
          'ses:CreateTenant',
          'ses:CreateTenantResourceAssociation',
          'ses:GetTenant',
          'ses:TagResource',
          'ses:UpdateReputationEntityPolicy',
        ].sort(),
      );
      const resources = JSON.stringify(st.Resource);
      expect(resources).toContain(':tenant/Staging-mail-*');
      expect(resources).toContain(':configuration-set/Staging-mail-*');
      expect(resources).toContain(':aws:reputation-policy/*');
    }
    // Sending names the team's tenant and its configuration set: SendEmail is granted on those names too.
    const send = policies
      .flatMap((p) => statements(p))
      .filter((st) => [st.Action].flat().includes('ses:SendEmail'))
      .map((st) => JSON.stringify(st.Resource));
    expect(send.length).toBeGreaterThan(0);
    for (const resources of send) {
      expect(resources).toContain(':tenant/Staging-mail-*');
      expect(resources).toContain(':configuration-set/Staging-mail-*');
    }
    for (const fn of Object.values(template.findResources('AWS::Lambda::Function')).filter(
      (f) => f.Properties.Environment?.Variables?.SES_CONFIGURATION_SET,
    ))
      expect(fn.Properties.Environment.Variables.SES_TENANTS).toBe('true');
  });

  it('answers unknown routes through the catalog: a $default route to a function that touches no data', () => {
    const fallback = apiRoutes().filter((r) => r.Properties.RouteKey === '$default');
    expect(fallback).toHaveLength(1);
    const unmatched = areaFunction('unmatched');
    expect(unmatched.Properties.Environment?.Variables?.TABLE_NAME).toBeUndefined();
    expect(actionsOfRole(unmatched)).toEqual(expect.not.arrayContaining(['dynamodb:PutItem']));
  });

  it("routes a `//` path (a base URL with a trailing slash) to the same route: the $default function may invoke each area's function, and nothing else", () => {
    const functions = template.findResources('AWS::Lambda::Function');
    const idOf = (area: string) => {
      const prefix = `Functions${area.replaceAll('-', '')}`;
      return Object.keys(functions).find((id) => id.startsWith(prefix) && !id.slice(prefix.length).match(/^[a-z]/))!;
    };
    const unmatched = areaFunction('unmatched');
    const areas = [...new Set(ROUTES.map((r) => r.area))];
    // AREA_FUNCTIONS names every area's function, so each route the manifest holds can be reached.
    const env = JSON.stringify(unmatched.Properties.Environment.Variables[AREA_FUNCTIONS_ENV]);
    for (const area of areas) expect(env, area).toContain(`"Ref":"${idOf(area)}"`);
    const role = unmatched.Properties.Role['Fn::GetAtt'][0];
    const statements = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((p) => p.Properties.Roles.some((r: any) => r.Ref === role))
      .flatMap((p) => p.Properties.PolicyDocument.Statement)
      // Tracing, as every function has.
      .filter((st: any) => ![st.Action].flat().every((a: string) => a.startsWith('xray:')));
    const invoked = new Set<string>();
    for (const statement of statements) {
      expect([statement.Action].flat(), JSON.stringify(statement)).toEqual(['lambda:InvokeFunction']);
      for (const resource of [statement.Resource].flat())
        invoked.add(JSON.stringify(resource).match(/"(Functions[A-Za-z0-9]+)"/)![1]!);
    }
    expect([...invoked].sort()).toEqual(areas.map(idOf).sort());
  });

  it('grants each area function only what the manifest declares it needs', () => {
    const consumed = consumedQueues(TEST_MANIFEST.workers);
    for (const area of AREAS) {
      const fn = areaFunction(area);
      const needs = areaNeeds(area);
      const env = fn.Properties.Environment.Variables;
      const actions = actionsOfRole(fn);
      // only the declared queues that exist (something consumes them)
      const declared = (needs.queues ?? []).filter((q) => consumed.includes(q));
      expect(
        Object.values(QUEUES)
          .filter((q) => q.env in env)
          .map((q) => q.env)
          .sort(),
        area,
      ).toEqual(declared.map((q) => QUEUES[q].env).sort());
      expect(actions.includes('scheduler:CreateSchedule'), area).toBe(Boolean(needs.scheduler));
      expect('LINK_SECRET_ARN' in env, area).toBe(needs.linkSecret === true);
      expect(actions.includes('secretsmanager:GetSecretValue'), area).toBe(needs.linkSecret === true);
      expect(actions.includes('ses:CreateEmailIdentity'), area).toBe(needs.sesIdentities === true);
      expect(actions.includes('ses:SendEmail'), area).toBe(false);
      expect(actions.includes('ses:SendRawEmail'), area).toBe(false);
      expect('CONTENT_BUCKET' in env, area).toBe(Boolean(needs.contentStore || needs.mailboxStore));
      expect(
        actions.some((a) => a.startsWith('s3:')),
        area,
      ).toBe(Boolean(needs.contentStore || needs.mailboxStore));
    }
    // The public preference pages can never create schedules.
    expect(actionsOfRole(areaFunction('preferences'))).not.toContain('scheduler:CreateSchedule');
    expect(actionsOfRole(areaFunction('preferences'))).not.toContain('iam:PassRole');
  });

  it("hands every REST area's answered requests to the request-log queue, read only by the recorder, which writes the table and sends to no queue", () => {
    const env = QUEUES['request-logs'].env;
    for (const area of AREAS) {
      const fn = areaFunction(area);
      // MCP speaks no REST and the OpenAPI document is public: neither logs requests.
      const sends = area !== 'mcp' && area !== 'openapi';
      expect(env in fn.Properties.Environment.Variables, area).toBe(sends);
      if (sends) expect(actionsOfRole(fn), area).toContain('sqs:SendMessage');
    }
    const mappings = Object.values(template.findResources('AWS::Lambda::EventSourceMapping')).filter((m) =>
      JSON.stringify(m.Properties.EventSourceArn).includes('Queuesrequestlogs'),
    );
    expect(mappings).toHaveLength(1);
    expect(mappings[0]!.Properties).toMatchObject({
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    const recorderId = mappings[0]!.Properties.FunctionName.Ref as string;
    expect(recorderId).toMatch(/^Workersrecordrequestlogs/);
    const recorder = template.findResources('AWS::Lambda::Function')[recorderId]!;
    const variables = Object.keys(recorder.Properties.Environment.Variables);
    expect(variables.filter((name) => name.endsWith('_QUEUE_URL'))).toEqual([]);
    expect(actionsOfRole(recorder)).toEqual(expect.arrayContaining(['dynamodb:BatchWriteItem']));
    expect(actionsOfRole(recorder)).not.toContain('sqs:SendMessage');
  });

  it('keeps large message content in one encrypted, never public, TLS-only bucket that expires it with the retention', () => {
    const buckets = Object.entries(template.findResources('AWS::S3::Bucket'));
    expect(buckets).toHaveLength(1);
    const [bucketId, bucket] = buckets[0]!;
    expect(
      bucket.Properties.BucketEncryption.ServerSideEncryptionConfiguration[0].ServerSideEncryptionByDefault
        .SSEAlgorithm,
    ).toBe('AES256');
    expect(bucket.Properties.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    // Email content expires with the retention, the receipt rule's raw copies after a few days;
    // mailbox mail (mailboxes/) is kept until deleted.
    const rules = bucket.Properties.LifecycleConfiguration.Rules;
    expect(rules).toContainEqual(
      expect.objectContaining({ Status: 'Enabled', Prefix: 'emails/', ExpirationInDays: EMAIL_CONTENT_RETENTION_DAYS }),
    );
    expect(rules).toContainEqual(
      expect.objectContaining({ Status: 'Enabled', Prefix: 'inbound/', ExpirationInDays: INBOUND_RAW_RETENTION_DAYS }),
    );
    // Copies made to serve a download too large for a Lambda's answer go within a day.
    expect(rules).toContainEqual(
      expect.objectContaining({ Status: 'Enabled', Prefix: 'emails/downloads/', ExpirationInDays: 1 }),
    );
    expect(
      rules
        .filter((r: any) => r.ExpirationInDays !== undefined)
        .map((r: any) => r.Prefix)
        .sort(),
    ).toEqual(['emails/', 'emails/downloads/', 'inbound/']);
    // enforceSSL: a bucket policy denies every request without TLS.
    const policies = Object.values(template.findResources('AWS::S3::BucketPolicy')).filter(
      (p) => p.Properties.Bucket.Ref === bucketId,
    );
    expect(policies.flatMap((p) => p.Properties.PolicyDocument.Statement)).toContainEqual(
      expect.objectContaining({
        Effect: 'Deny',
        Action: 's3:*',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      }),
    );
    // Only the accept path and the send worker reach it: the send worker reads it (and only reads), the preferences pages do not.
    const sendWorker = Object.entries(template.findResources('AWS::Lambda::Function')).find(([id]) =>
      id.startsWith('Workerssendemail'),
    )![1];
    expect(sendWorker.Properties.Environment.Variables.CONTENT_BUCKET).toEqual({ Ref: bucketId });
    expect(actionsOfRole(sendWorker).filter((a) => a.startsWith('s3:'))).toEqual(['s3:GetObject']);
    expect(actionsOfRole(areaFunction('preferences')).filter((a) => a.startsWith('s3:'))).toEqual([]);
    const relayTask = Object.values(template.findResources('AWS::ECS::TaskDefinition'))[0]!;
    expect(relayTask.Properties.ContainerDefinitions[0].Environment).toContainEqual({
      Name: 'CONTENT_BUCKET',
      Value: { Ref: bucketId },
    });
  });

  it('receives mailbox mail: a receipt rule set with one scanning rule that stores the raw message under inbound/ and then invokes the inbound Lambda', () => {
    const sets = Object.values(template.findResources('AWS::SES::ReceiptRuleSet'));
    expect(sets.map((s) => s.Properties.RuleSetName)).toEqual(['Staging-inbound']);
    const rules = Object.values(template.findResources('AWS::SES::ReceiptRule')).map((r) => r.Properties);
    expect(rules).toHaveLength(1);
    const rule = rules[0]!;
    expect(rule.RuleSetName).toEqual({ Ref: Object.keys(template.findResources('AWS::SES::ReceiptRuleSet'))[0] });
    expect(rule.Rule).toMatchObject({ Enabled: true, ScanEnabled: true });
    // Named so the domain use cases can find it; the stack gives it no recipients: they name the
    // held domains at run time (until then every verified domain, the Lambda keeping what a mailbox takes).
    expect(rule.Rule.Name).toBe('Staging-mailboxes');
    expect(rule.Rule.Recipients).toBeUndefined();
    // The functions that change domains may read and rewrite that rule, and know its name.
    const domains = Object.values(template.findResources('AWS::Lambda::Function')).find((f) =>
      JSON.stringify(f.Properties.Environment ?? {}).includes('"INBOUND_RULE_NAME":"Staging-mailboxes"'),
    );
    expect(domains?.Properties.Environment.Variables.INBOUND_RULE_SET_NAME).toBe('Staging-inbound');
    const [bucketId] = Object.keys(template.findResources('AWS::S3::Bucket'));
    const [store, invoke] = rule.Rule.Actions;
    expect(store).toEqual({ S3Action: { BucketName: { Ref: bucketId }, ObjectKeyPrefix: 'inbound/' } });
    const receiverId = Object.keys(template.findResources('AWS::Lambda::Function')).find((id) =>
      id.startsWith('Inboundreceivemail'),
    )!;
    expect(invoke).toEqual({
      LambdaAction: { FunctionArn: { 'Fn::GetAtt': [receiverId, 'Arn'] }, InvocationType: 'Event' },
    });
    // SES may put objects under inbound/ only, for this account; SES may invoke the receiver.
    const bucketPolicy = Object.values(template.findResources('AWS::S3::BucketPolicy')).find(
      (p) => p.Properties.Bucket.Ref === bucketId,
    )!;
    expect(bucketPolicy.Properties.PolicyDocument.Statement).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Action: 's3:PutObject',
        Principal: { Service: 'ses.amazonaws.com' },
        Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
      }),
    );
    const permissions = Object.values(template.findResources('AWS::Lambda::Permission'))
      .map((p) => p.Properties)
      .filter((p) => p.Principal === 'ses.amazonaws.com');
    expect(permissions).toEqual([
      expect.objectContaining({ Action: 'lambda:InvokeFunction', FunctionName: { 'Fn::GetAtt': [receiverId, 'Arn'] } }),
    ]);
    // The receiver reads the raw copies and writes mailbox mail, nothing else of the bucket.
    const receiver = template.findResources('AWS::Lambda::Function')[receiverId]!;
    expect(receiver.Properties.Environment.Variables.CONTENT_BUCKET).toEqual({ Ref: bucketId });
    const resources = Object.values(template.findResources('AWS::IAM::Policy'))
      .filter((p) => p.Properties.Roles.some((r: any) => r.Ref === receiver.Properties.Role['Fn::GetAtt'][0]))
      .flatMap((p) =>
        p.Properties.PolicyDocument.Statement.filter((st: any) =>
          [st.Action].flat().some((a: string) => a.startsWith('s3:')),
        ),
      )
      .map((st: any) => JSON.stringify(st.Resource));
    expect(resources.some((r) => r.includes('/inbound/*'))).toBe(true);
    expect(resources.some((r) => r.includes('/mailboxes/*'))).toBe(true);
    expect(resources.some((r) => r.includes('/emails/*'))).toBe(false);
  });

  it('keeps an inbound invocation that failed after its retries, with its event, in a queue an alarm watches (SES invokes asynchronously)', () => {
    const receiverId = Object.keys(template.findResources('AWS::Lambda::Function')).find((id) =>
      id.startsWith('Inboundreceivemail'),
    )!;
    const configs = Object.values(template.findResources('AWS::Lambda::EventInvokeConfig')).map((c) => c.Properties);
    const config = configs.find((c) => c.FunctionName.Ref === receiverId)!;
    expect(config).toMatchObject({ MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 6 * 3600 });
    const [queueId] = config.DestinationConfig.OnFailure.Destination['Fn::GetAtt'];
    expect(template.findResources('AWS::SQS::Queue')[queueId]!.Properties).toMatchObject({
      MessageRetentionPeriod: 14 * 86400,
      SqsManagedSseEnabled: true,
    });
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).map((a) => a.Properties);
    expect(
      alarms.some(
        (a) => a.MetricName === 'ApproximateNumberOfMessagesVisible' && JSON.stringify(a.Dimensions).includes(queueId),
      ),
    ).toBe(true);
  });

  it("gives every function the dashboard's address: quota events raised on the send path link to its pages (dashboard_url)", () => {
    const dashboardApi = Object.entries(template.findResources('AWS::ApiGatewayV2::Api')).find(([, a]) =>
      String(a.Properties.Description).includes('dashboard'),
    )!;
    for (const area of ['emails', 'dashboard', 'mcp']) {
      expect(areaFunction(area).Properties.Environment.Variables.DASHBOARD_URL['Fn::GetAtt'][0]).toBe(dashboardApi[0]);
    }
    const relayTask = Object.values(template.findResources('AWS::ECS::TaskDefinition'))[0]!;
    expect(
      relayTask.Properties.ContainerDefinitions[0].Environment.find((e: { Name: string }) => e.Name === 'DASHBOARD_URL')
        .Value['Fn::GetAtt'][0],
    ).toBe(dashboardApi[0]);
  });

  it("links the owner notices of the webhook delivery worker to the dashboard's pages (its DASHBOARD_URL is the dashboard API)", () => {
    const dashboardApi = Object.entries(template.findResources('AWS::ApiGatewayV2::Api')).find(([, a]) =>
      String(a.Properties.Description).includes('dashboard'),
    )!;
    const worker = Object.entries(template.findResources('AWS::Lambda::Function')).find(([id]) =>
      id.startsWith('Workersdeliverwebhooks'),
    )![1];
    expect(worker.Properties.Environment.Variables.DASHBOARD_URL['Fn::GetAtt'][0]).toBe(dashboardApi[0]);
  });

  it("adds the mailbox rule to the account's active receipt rule set when one is named, creating none", () => {
    const app = new App({
      context: { 'aws:cdk:bundling-stacks': [], 'mailstack:inboundRuleSetName': 'existing-active' },
    });
    const config = readStackConfig((k) => app.node.tryGetContext(k));
    const other = Template.fromStack(new MailStack(app, 'Other', { config }));
    expect(Object.keys(other.findResources('AWS::SES::ReceiptRuleSet'))).toEqual([]);
    expect(Object.values(other.findResources('AWS::SES::ReceiptRule')).map((r) => r.Properties.RuleSetName)).toEqual([
      'existing-active',
    ]);
    expect(() => readStackConfig((k) => (k === 'mailstack:inboundRuleSetName' ? 'bad name!' : undefined))).toThrow(
      /inboundRuleSetName/,
    );
  }, 240_000);

  it('sends SES events through SNS to the provider-events queue (with a DLQ on the subscription) and a worker that checks the topic', () => {
    const [topicId] = Object.entries(template.findResources('AWS::SNS::Topic'))
      .filter(([, t]) => !t.Properties?.TopicName)
      .map(([id]) => id);
    expect(topicId).toBeDefined();
    const subscriptions = Object.values(template.findResources('AWS::SNS::Subscription')).map((s) => s.Properties);
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]).toMatchObject({
      Protocol: 'sqs',
      TopicArn: { Ref: topicId },
      Endpoint: { 'Fn::GetAtt': [expect.stringMatching(/^Queuesproviderevents/), 'Arn'] },
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [expect.stringMatching(/^ProviderDeliveryDlq/), 'Arn'] } },
    });
    expect(subscriptions[0].RawMessageDelivery ?? false).toBe(false);
    // only this topic may send to the queue
    const queuePolicy = Object.values(template.findResources('AWS::SQS::QueuePolicy'))
      .flatMap((p) => p.Properties.PolicyDocument.Statement)
      .find(
        (s: any) =>
          s.Principal?.Service === 'sns.amazonaws.com' && JSON.stringify(s.Resource).includes('Queuesproviderevents'),
      );
    expect(queuePolicy).toMatchObject({
      Action: 'sqs:SendMessage',
      Effect: 'Allow',
      Condition: { ArnEquals: { 'aws:SourceArn': { Ref: topicId } } },
    });
    // the worker reads the queue and knows the one topic it accepts
    const worker = Object.entries(template.findResources('AWS::Lambda::Function')).find(([id]) =>
      id.startsWith('Workersreceiveproviderevents'),
    );
    expect(worker?.[1].Properties.Environment.Variables.SES_EVENTS_TOPIC_ARN).toEqual({ Ref: topicId });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('^Queuesproviderevents'), 'Arn'] },
      FunctionName: { Ref: worker?.[0] },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    // the HTTPS route is gone
    expect(ROUTES.some((r) => r.path.startsWith('/provider-events'))).toBe(false);
  });

  describe('the SMTP relay', () => {
    const resourceOf = (type: string, predicate: (r: any) => boolean = () => true): [string, any] => {
      const found = Object.entries(template.findResources(type)).filter(([, r]) => predicate(r));
      expect(found, type).toHaveLength(1);
      return found[0]!;
    };
    const policyOfRole = (roleLogicalId: string) =>
      resourceOf('AWS::IAM::Policy', (p) => p.Properties.Roles.some((r: any) => r.Ref === roleLogicalId))[1].Properties
        .PolicyDocument.Statement as any[];

    it("runs on Fargate (ARM64, the smallest size: 0.25 vCPU, 0.5 GB) from the repository's Dockerfile as an image asset, with a health check and logs kept a month", () => {
      const [, service] = resourceOf('AWS::ECS::Service');
      expect(service.Properties).toMatchObject({
        LaunchType: 'FARGATE',
        DesiredCount: 2,
        DeploymentConfiguration: { DeploymentCircuitBreaker: { Enable: true, Rollback: true } },
      });
      const [, task] = resourceOf('AWS::ECS::TaskDefinition');
      expect(task.Properties.RuntimePlatform).toEqual({ CpuArchitecture: 'ARM64', OperatingSystemFamily: 'LINUX' });
      expect(task.Properties).toMatchObject({ Cpu: '256', Memory: '512' });
      const [container] = task.Properties.ContainerDefinitions;
      expect(JSON.stringify(container.Image)).toContain('container-assets');
      expect(container.PortMappings).toEqual(expect.arrayContaining([{ ContainerPort: 2587, Protocol: 'tcp' }]));
      expect(container.HealthCheck.Command.join(' ')).toContain('/health');
      const logGroup = container.LogConfiguration.Options['awslogs-group'].Ref;
      expect(template.toJSON().Resources[logGroup].Properties.RetentionInDays).toBe(30);
      const asset = stack.node.findAll().find((c) => c.node.path.endsWith('Smtp/Task/relay/AssetImage'));
      expect(asset).toBeDefined();
    });

    it('sits behind an internet-facing NLB listening on TCP 2587, health-checked over HTTP and keeping client addresses', () => {
      resourceOf(
        'AWS::ElasticLoadBalancingV2::LoadBalancer',
        (r) => r.Properties.Type === 'network' && r.Properties.Scheme === 'internet-facing',
      );
      const [, listener] = resourceOf('AWS::ElasticLoadBalancingV2::Listener', (r) => r.Properties.Port === 2587);
      expect(listener.Properties.Protocol).toBe('TCP');
      const group = template.toJSON().Resources[listener.Properties.DefaultActions[0].TargetGroupArn.Ref];
      expect(group.Properties).toMatchObject({
        Port: 2587,
        Protocol: 'TCP',
        TargetType: 'ip',
        HealthCheckProtocol: 'HTTP',
        HealthCheckPort: '8025',
        HealthCheckPath: '/health',
      });
      expect(group.Properties.TargetGroupAttributes).toEqual(
        expect.arrayContaining([{ Key: 'preserve_client_ip.enabled', Value: 'true' }]),
      );
      template.hasOutput('*', { Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('SmtpNlb'), 'DNSName'] } });
    });

    it('reads the TLS certificate and key from the Secrets Manager secret named in context, granted to the execution role only', () => {
      const [, task] = resourceOf('AWS::ECS::TaskDefinition');
      const secrets = task.Properties.ContainerDefinitions[0].Secrets as { Name: string; ValueFrom: unknown }[];
      expect(secrets.map((s) => s.Name).sort()).toEqual(['SMTP_TLS_CERT', 'SMTP_TLS_KEY']);
      for (const s of secrets)
        expect(JSON.stringify(s.ValueFrom)).toMatch(/secret:mailstack\/smtp-tls:(certificate|key)::/);
      const executionGrant = policyOfRole(task.Properties.ExecutionRoleArn['Fn::GetAtt'][0]).find((st) =>
        [st.Action].flat().includes('secretsmanager:GetSecretValue'),
      );
      expect(JSON.stringify(executionGrant.Resource)).toContain('secret:mailstack/smtp-tls-??????');
      const taskActions = policyOfRole(task.Properties.TaskRoleArn['Fn::GetAtt'][0]).flatMap((st) =>
        [st.Action].flat(),
      );
      expect(taskActions.filter((a: string) => a.startsWith('secretsmanager:'))).toEqual([]);
    });

    it("gives the task role the accept path's table and queue access, content-store puts, a namespaced metric put, and nothing else", () => {
      const [, task] = resourceOf('AWS::ECS::TaskDefinition');
      const statements = policyOfRole(task.Properties.TaskRoleArn['Fn::GetAtt'][0]);
      const services = new Set(statements.flatMap((st) => [st.Action].flat()).map((a: string) => a.split(':')[0]));
      expect([...services].sort()).toEqual(['cloudwatch', 'dynamodb', 's3', 'sqs']);
      // the accept path only puts large content; it never reads or deletes it
      expect(statements.flatMap((st) => [st.Action].flat()).filter((a: string) => a.startsWith('s3:'))).toEqual([
        's3:PutObject',
      ]);
      const sqs = statements.filter((st) => [st.Action].flat().includes('sqs:SendMessage'));
      // the accepted mail's send jobs and the events it records (webhook fan-out)
      expect(sqs.map((st) => st.Resource['Fn::GetAtt'][0]).sort()).toEqual([
        expect.stringMatching(/^Queuesevents/),
        expect.stringMatching(/^Queuessend/),
      ]);
      for (const st of statements) expect([st.Action].flat()).not.toContain('sqs:ReceiveMessage');
      const metric = statements.find((st) => st.Action === 'cloudwatch:PutMetricData');
      expect(metric.Condition).toEqual({ StringEquals: { 'cloudwatch:namespace': 'Mailstack/SmtpRelay' } });
      const dynamo = statements.find((st) => [st.Action].flat().includes('dynamodb:PutItem'));
      expect(JSON.stringify(dynamo.Resource)).toContain('DataTable');
    });

    it('scales from the desired count on open sessions per task', () => {
      const [, target] = resourceOf(
        'AWS::ApplicationAutoScaling::ScalableTarget',
        (r) => r.Properties.ScalableDimension === 'ecs:service:DesiredCount',
      );
      expect(target.Properties).toMatchObject({ MinCapacity: 2, MaxCapacity: 10 });
      template.hasResourceProperties('AWS::ApplicationAutoScaling::ScalingPolicy', {
        PolicyType: 'TargetTrackingScaling',
        TargetTrackingScalingPolicyConfiguration: Match.objectLike({
          TargetValue: 200,
          CustomizedMetricSpecification: Match.objectLike({
            Namespace: 'Mailstack/SmtpRelay',
            MetricName: 'ActiveConnections',
            Statistic: 'Average',
          }),
        }),
      });
    });
  });

  it('sends webhooks to public https targets only, keeping delivery rows for the configured retention (TTL)', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function')).filter(
      (f) => f.Properties.Environment?.Variables?.TABLE_NAME,
    );
    for (const f of functions)
      expect(f.Properties.Environment.Variables).toMatchObject({
        WEBHOOK_TARGETS: 'public',
        WEBHOOK_DELIVERY_RETENTION_DAYS: '30',
      });
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
    });
  });

  it('feeds the webhook dispatcher from the events queue and the delivery worker from the webhook queue, each queue outlasting its worker', () => {
    const byQueue = new Map(WORKERS.map((w) => [w.queue, w.entry]));
    expect(byQueue.get('events')).toBe('workers/fan-out-events.worker');
    expect(byQueue.get('webhooks')).toBe('workers/deliver-webhooks.worker');
    // Retries past SQS's 15-minute delay go through EventBridge Scheduler, which may send to every queue.
    template.resourceCountIs('AWS::Scheduler::ScheduleGroup', 1);
    const schedulerPolicies = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) =>
      JSON.stringify(p.Properties.Roles).includes('SchedulerRole'),
    );
    expect(JSON.stringify(schedulerPolicies)).toContain('sqs:SendMessage');
    // Only this account's schedules may assume the role.
    const role = Object.entries(template.findResources('AWS::IAM::Role')).find(([id]) =>
      id.startsWith('SchedulerRole'),
    )![1];
    expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
      expect.objectContaining({
        Principal: { Service: 'scheduler.amazonaws.com' },
        Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } } },
      }),
    ]);
  });

  it('reads the one system team and sender (dashboard mail and owner notices alike) from context; absent: a default sender and a team the service makes', () => {
    const absent = readStackConfig(() => undefined);
    expect([absent.systemTeamId, absent.systemSender]).toEqual(['', 'mailstack <no-reply@mailstack.localhost>']);
    const context: Record<string, string> = {
      'mailstack:systemTeamId': 'team-1',
      'mailstack:systemSender': 'Notices <n@ops.example.com>',
    };
    const set = readStackConfig((k) => context[k]);
    expect([set.systemTeamId, set.systemSender]).toEqual(['team-1', 'Notices <n@ops.example.com>']);
  });

  it('reads the tracking CNAME target from context into every function (absent: empty, so tracking links use the API origin)', () => {
    expect(readStackConfig(() => undefined).trackingCnameTarget).toBe('');
    expect(
      readStackConfig((k) => (k === 'mailstack:trackingCnameTarget' ? 'Track.Mail.Example.com.' : undefined))
        .trackingCnameTarget,
    ).toBe('track.mail.example.com');
    const functions = Object.values(template.findResources('AWS::Lambda::Function')).filter(
      (f) => f.Properties.Environment?.Variables?.TABLE_NAME,
    );
    expect(functions.length).toBeGreaterThan(0);
    for (const f of functions) expect(f.Properties.Environment.Variables.TRACKING_CNAME_TARGET).toBe('');
  });

  it('names one configuration set that publishes no opens or clicks: SES adds no pixel and rewrites no link, the service tracks those itself', () => {
    const sets = Object.entries(template.findResources('AWS::SES::ConfigurationSet')).map(
      ([id, s]) => [s.Properties.Name, id] as const,
    );
    expect(sets.map(([name]) => name)).toEqual(['Staging-mail']);
    const destinations = Object.values(template.findResources('AWS::SES::ConfigurationSetEventDestination')).map(
      (d) => d.Properties,
    );
    expect(destinations).toHaveLength(1);
    expect(destinations[0].ConfigurationSetName).toEqual({ Ref: sets[0]![1] });
    const events: string[] = destinations[0].EventDestination.MatchingEventTypes;
    expect(events).toEqual(
      expect.arrayContaining([
        'send',
        'delivery',
        'bounce',
        'complaint',
        'reject',
        'renderingFailure',
        'deliveryDelay',
      ]),
    );
    expect(events).not.toContain('open');
    expect(events).not.toContain('click');
  });

  it("keeps SES's account-level suppression list out of the configuration set: one team's bounce or complaint never refuses another team's mail (each team has its own list)", () => {
    const sets = Object.values(template.findResources('AWS::SES::ConfigurationSet'));
    expect(sets.length).toBeGreaterThan(0);
    for (const set of sets) expect(set.Properties.SuppressionOptions).toEqual({ SuppressedReasons: [] });
  });

  it('keeps the link-signing secret with the table, out of every environment, readable only by the functions that sign or check links', () => {
    const secrets = template.findResources('AWS::SecretsManager::Secret');
    const [secretId, secret] = Object.entries(secrets)[0]!;
    expect(Object.keys(secrets)).toHaveLength(1);
    expect(secret).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    expect(Object.values(template.findResources('AWS::DynamoDB::Table'))[0]).toMatchObject({
      DeletionPolicy: 'Retain',
    });
    expect(secret.Properties.GenerateSecretString).toMatchObject({
      SecretStringTemplate: '{"current":"k1"}',
      GenerateStringKey: 'k1',
    });
    const functions = Object.entries(template.findResources('AWS::Lambda::Function'));
    for (const [, f] of functions)
      expect(JSON.stringify(f.Properties.Environment ?? {})).not.toMatch(/TOKEN_SECRET|resolve:secretsmanager/);
    const withSecret = functions
      .filter(([, f]) => f.Properties.Environment?.Variables?.LINK_SECRET_ARN)
      .map(([id]) => id.replace(/[0-9A-F]{8}$/, ''))
      .sort();
    expect(withSecret).toEqual([
      'Functionscontacts',
      'Functionsdashboard',
      'Functionsemails',
      'Functionsmcp',
      'Functionspreferences',
      'Functionsreceiving',
      'Functionstracking',
      'Workersprobeworker',
      'Workerssendbroadcastemail',
      'Workerssendemail',
      'Workerssendemaillater',
    ]);
    const readers = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) =>
      p.Properties.PolicyDocument.Statement.some(
        (s: any) =>
          [s.Action].flat().includes('secretsmanager:GetSecretValue') && JSON.stringify(s.Resource).includes(secretId),
      ),
    );
    expect(readers).toHaveLength(11);
  });

  it('serves the API on the custom domain from context, and says where to point DNS', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::DomainName', {
      DomainName: 'mail-api.example.com',
      DomainNameConfigurations: [
        Match.objectLike({ CertificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/abc-123' }),
      ],
    });
    template.hasResourceProperties('AWS::ApiGatewayV2::ApiMapping', { Stage: Match.anyValue() });
    expect(template.findOutputs('*').ApiUrl!.Value).toBe('https://mail-api.example.com');
    expect(Object.keys(template.findOutputs('*'))).toContain('ApiDomainTarget');
    expect(() => readStackConfig((k) => (k === 'mailstack:domainName' ? 'mail.example.com' : undefined))).toThrow(
      /mailstack:certificateArn must be/,
    );
  });

  it('deploys in its one delivery region, and refuses extra delivery regions at synth with what to do instead', () => {
    expect(stack.region).toBe('eu-west-1');
    expect(() => readStackConfig((k) => (k === 'mailstack:deliveryRegions' ? 'us-east-1,narnia' : undefined))).toThrow(
      /deliveryRegions must be/,
    );
    expect(() =>
      readStackConfig((k) => (k === 'mailstack:deliveryRegions' ? 'us-east-1,eu-west-1' : undefined)),
    ).toThrow(/one stack delivers in one region.*eu-west-1 could not send.*deploy another stack/s);
  });
  it('serves the dashboard from its own function behind its own HTTP API (a separate origin), granted only what it declares', () => {
    const apis = template.findResources('AWS::ApiGatewayV2::Api');
    const dashboardApi = Object.entries(apis).find(([, a]) => String(a.Properties.Description).includes('dashboard'));
    const stage = Object.values(template.findResources('AWS::ApiGatewayV2::Stage')).find(
      (st) => st.Properties.ApiId.Ref === dashboardApi?.[0],
    );
    expect(stage?.Properties.AccessLogSettings).toBeDefined();
    expect(dashboardApi).toBeDefined();
    expect(Object.keys(apis)).toHaveLength(2);
    const [apiId] = dashboardApi!;
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).filter(
      (r) => r.Properties.ApiId.Ref === apiId,
    );
    expect(routes.map((r) => r.Properties.RouteKey)).toEqual(['$default']);
    const fn = areaFunction('dashboard');
    expect(fn.Properties.Runtime).toBe('nodejs22.x');
    expect(fn.Properties.Environment.Variables.DASHBOARD_URL['Fn::GetAtt'][0]).toBe(apiId);
    expect(fn.Properties.Environment.Variables.SYSTEM_SENDER).toContain('@');
    const integration = Object.values(template.findResources('AWS::ApiGatewayV2::Integration')).find(
      (i) => i.Properties.ApiId.Ref === apiId,
    )!;
    expect(JSON.stringify(integration.Properties.IntegrationUri)).toContain(
      Object.entries(template.findResources('AWS::Lambda::Function')).find(([, f]) => f === fn)![0],
    );
    const services = new Set(actionsOfRole(fn).map((a) => a.split(':')[0]!));
    expect(
      [...services].filter(
        (s) => !['dynamodb', 'sqs', 'ses', 'xray', 's3', 'scheduler', 'iam', 'secretsmanager'].includes(s),
      ),
    ).toEqual([]);
    expect(actionsOfRole(fn)).toContain('ses:CreateEmailIdentity');
    // Its pages send and cancel broadcasts (the fan-out queue and its schedules) and replay webhook deliveries (the webhook queue).
    expect(Object.keys(fn.Properties.Environment.Variables)).toEqual(
      expect.arrayContaining(['SEND_QUEUE_URL', 'EVENTS_QUEUE_URL', 'FANOUT_QUEUE_URL', 'WEBHOOK_QUEUE_URL']),
    );
    expect(actionsOfRole(fn)).toEqual(
      expect.arrayContaining(['scheduler:CreateSchedule', 'scheduler:DeleteSchedule', 'iam:PassRole']),
    );
    // The mailbox agent API: it reads received mail, keeps draft attachments and sends them as email content.
    expect(actionsOfRole(fn)).toEqual(expect.arrayContaining(['s3:GetObject', 's3:PutObject']));
    expect(fn.Properties.Environment.Variables.CONTENT_BUCKET).toBeDefined();
    // It queues mail for the send worker; it never calls the provider itself.
    expect(actionsOfRole(fn)).not.toContain('ses:SendEmail');
  });

  it('takes the stack name from context, so staging and production share an account', () => {
    expect(stack.stackName).toBe('Staging');
    expect(readStackConfig(() => undefined).stackName).toBe('Mailstack');
    expect(() => readStackConfig((k) => (k === 'mailstack:stackName' ? 'bad name!' : undefined))).toThrow(
      /mailstack:stackName must/,
    );
  });

  it('outputs the API URL, the table name and the operator topic', () => {
    const outputs = template.findOutputs('*');
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['ApiUrl', 'TableName', 'OperatorTopicArn']));
    expect(outputs.TableName!.Value).toEqual({ Ref: expect.stringMatching(/^DataTable/) });
  });

  it('alarms to the operator topic named in context on DLQ depth, worker errors and throttles, API 5xx, SES reputation and event delivery failures', () => {
    const [topicId] = Object.keys(
      template.findResources('AWS::SNS::Topic', { Properties: { TopicName: 'staging-pager' } }),
    );
    expect(topicId).toBeDefined();
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).map((a) => a.Properties);
    for (const a of alarms) expect(a.AlarmActions).toEqual([{ Ref: topicId }]);
    // The topic's policy (TLS only) replaces SNS's default: it must let this account's alarms publish.
    const policy = Object.values(template.findResources('AWS::SNS::TopicPolicy')).find((p) =>
      p.Properties.Topics.some((t: any) => t.Ref === topicId),
    )!;
    expect(policy.Properties.PolicyDocument.Statement).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Effect: 'Allow',
          Principal: { Service: 'cloudwatch.amazonaws.com' },
          Action: 'sns:Publish',
          Condition: expect.objectContaining({ StringEquals: { 'aws:SourceAccount': expect.anything() } }),
        }),
      ]),
    );
    const on = (metric: string, namespace: string) =>
      alarms.filter((a) => a.MetricName === metric && a.Namespace === namespace);
    // each work queue's DLQ, the subscription's DLQ and the inbound function's failure queue
    expect(on('ApproximateNumberOfMessagesVisible', 'AWS/SQS')).toHaveLength(
      consumedQueues(TEST_MANIFEST.workers).length + 2,
    );
    expect(on('ApproximateNumberOfMessagesVisible', 'AWS/SQS').every((a) => a.Threshold === 1)).toBe(true);
    // every worker and timer, and the inbound Lambda
    expect(on('Errors', 'AWS/Lambda')).toHaveLength(TEST_MANIFEST.workers.length + TEST_MANIFEST.timers.length + 1);
    expect(on('Throttles', 'AWS/Lambda')).toHaveLength(TEST_MANIFEST.workers.length + TEST_MANIFEST.timers.length + 1);
    // the email API and the dashboard's API
    expect(on('5xx', 'AWS/ApiGateway')).toHaveLength(2);
    expect(on('Reputation.BounceRate', 'AWS/SES')[0]).toMatchObject({
      Threshold: SES_BOUNCE_RATE_ALARM,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
    });
    expect(SES_BOUNCE_RATE_ALARM).toBe(0.05);
    expect(on('Reputation.ComplaintRate', 'AWS/SES')[0]).toMatchObject({ Threshold: SES_COMPLAINT_RATE_ALARM });
    expect(SES_COMPLAINT_RATE_ALARM).toBe(0.001);
    expect(on('NumberOfNotificationsFailed', 'AWS/SNS').length).toBeGreaterThanOrEqual(1);
  });

  it("alarms when a work queue's oldest message waits past its line for three five-minute periods running (one slow batch is noise)", () => {
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')).map((a) => a.Properties);
    const aged = alarms.filter((a) => a.MetricName === 'ApproximateAgeOfOldestMessage' && a.Namespace === 'AWS/SQS');
    const queues = Object.entries(template.findResources('AWS::SQS::Queue'));
    expect(aged).toHaveLength(consumedQueues(TEST_MANIFEST.workers).length);
    for (const name of consumedQueues(TEST_MANIFEST.workers)) {
      const [queueId, queue] = queues.find(
        ([id, q]) => id.startsWith(`Queues${name.replace(/-/g, '')}`) && q.Properties?.RedrivePolicy,
      )!;
      const alarm = aged.find((a) => a.Dimensions[0].Value['Fn::GetAtt'][0] === queueId);
      expect(alarm, name).toMatchObject({
        Statistic: 'Maximum',
        Period: 300,
        EvaluationPeriods: QUEUE_AGE_ALARM_PERIODS,
        DatapointsToAlarm: QUEUE_AGE_ALARM_PERIODS,
        Threshold: queueAgeAlarmSeconds(queue.Properties.VisibilityTimeout),
        TreatMissingData: 'notBreaching',
      });
    }
    expect(QUEUE_AGE_ALARM_PERIODS).toBeGreaterThan(1);
    // SQS's longest delay, plus three receives of a message at a worker's 300 s visibility.
    expect(queueAgeAlarmSeconds(300)).toBe(1800);
  });

  it('protects the table from deletion and keeps point-in-time recovery, both on unless context turns them off', () => {
    expect(Object.values(template.findResources('AWS::DynamoDB::Table'))[0]!.Properties).toMatchObject({
      DeletionProtectionEnabled: true,
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
    });
    const config = readStackConfig((k) =>
      k === 'mailstack:tableDeletionProtection' || k === 'mailstack:tablePointInTimeRecovery' ? 'false' : undefined,
    );
    expect(config.table).toEqual({ deletionProtection: false, pointInTimeRecovery: false });
    expect(readStackConfig(() => undefined).table).toEqual({ deletionProtection: true, pointInTimeRecovery: true });
  });

  it('versions the content bucket, removing old versions and the delete markers expiry leaves', () => {
    const [bucket] = Object.values(template.findResources('AWS::S3::Bucket'));
    expect(bucket!.Properties.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    const rules = bucket!.Properties.LifecycleConfiguration.Rules;
    expect(rules).toContainEqual(
      expect.objectContaining({
        Status: 'Enabled',
        NoncurrentVersionExpiration: { NoncurrentDays: NONCURRENT_VERSION_DAYS },
      }),
    );
    expect(rules).toContainEqual(expect.objectContaining({ Status: 'Enabled', ExpiredObjectDeleteMarker: true }));
  });

  it('hands the email retention from context to every function (0 unless set: emails are kept)', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function')).filter(
      (f) => f.Properties.Environment?.Variables?.TABLE_NAME,
    );
    for (const f of functions) expect(f.Properties.Environment.Variables.EMAIL_RETENTION_DAYS).toBe('0');
    expect(readStackConfig((k) => (k === 'mailstack:emailRetentionDays' ? '30' : undefined)).emailRetentionDays).toBe(
      30,
    );
    expect(() => readStackConfig((k) => (k === 'mailstack:emailRetentionDays' ? '-1' : undefined))).toThrow(
      /mailstack:emailRetentionDays must be a whole number from 0 to 3650/,
    );
  });

  it("sets a retention on every log group (the relay's and its VPC flow logs' included: a month for function, relay and flow logs, three months for API access logs), and keeps Lambda's own per-invocation lines out", () => {
    const groups = Object.entries(template.findResources('AWS::Logs::LogGroup'));
    expect(groups.length).toBeGreaterThan(10);
    expect(
      groups.filter(([, g]) => g.Properties?.RetentionInDays === undefined).map(([id]) => id),
      'log groups kept forever',
    ).toEqual([]);
    expect([...new Set(groups.map(([, g]) => g.Properties.RetentionInDays))].sort()).toEqual([30, 90]);
    const flowLogs = Object.values(template.findResources('AWS::EC2::FlowLog'));
    expect(flowLogs).toHaveLength(1);
    expect(template.toJSON().Resources[flowLogs[0]!.Properties.LogGroupName.Ref].Properties.RetentionInDays).toBe(30);
    // Lambda would make a log group of its own (kept forever) for a function that names none, and
    // its own START, END and REPORT lines stay out (system log level WARN).
    for (const fn of Object.values(template.findResources('AWS::Lambda::Function')).filter(
      (f) => f.Properties.Runtime === 'nodejs22.x',
    )) {
      expect(fn.Properties.LoggingConfig?.LogGroup, 'a function without its own log group').toBeDefined();
      expect(fn.Properties.LoggingConfig).toMatchObject({ LogFormat: 'JSON', SystemLogLevel: 'WARN' });
      expect(fn.Properties.Environment.Variables.LOG_LEVEL).toBe('INFO');
    }
  });

  it('builds one dashboard', () => {
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
  });

  it("alarms when the provider send line is parked, and lets every sender read the SES account's state (GetAccount), and only the senders", () => {
    const parked = Object.values(template.findResources('AWS::CloudWatch::Alarm'))
      .map((a) => a.Properties)
      .filter((a) => a.MetricName === 'SendLineParked');
    expect(parked).toHaveLength(1);
    expect(parked[0]).toMatchObject({
      Namespace: 'Mailstack',
      Dimensions: [{ Name: 'service', Value: 'mailstack' }],
      Statistic: 'Sum',
      Threshold: 1,
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      TreatMissingData: 'notBreaching',
    });
    const functions = Object.values(template.findResources('AWS::Lambda::Function'));
    const senders = functions.filter((fn) => actionsOfRole(fn).includes('ses:SendEmail'));
    expect(senders.length).toBeGreaterThan(0);
    for (const fn of senders) expect(actionsOfRole(fn)).toContain('ses:GetAccount');
    expect(functions.filter((fn) => actionsOfRole(fn).includes('ses:GetAccount'))).toHaveLength(senders.length);
  });

  it('logs every API request as JSON with its request id, and throttles the stage as configured', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: {
        DestinationArn: Match.anyValue(),
        Format: Match.stringLikeRegexp('"requestId":"\\$context.requestId"'),
      },
      DefaultRouteSettings: { ThrottlingRateLimit: 25, ThrottlingBurstLimit: 50 },
    });
  });

  it("throttles tracking, the hosted pages, MCP and OAuth on routes of their own, so a broadcast's opens cannot take the sends' capacity", () => {
    // The email API's stage (the dashboard's API has its own).
    const stages = Object.entries(template.findResources('AWS::ApiGatewayV2::Stage')).filter(([id]) =>
      id.startsWith('HttpApiDefaultStage'),
    );
    expect(stages).toHaveLength(1);
    const [stageId, stage] = stages[0]!;
    const settings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> =
      stage.Properties.RouteSettings;
    // Every route of the four classes' areas, from the manifest, and no other route.
    const classes = { tracking: ['tracking'], pages: ['preferences'], mcp: ['mcp'], oauth: ['oauth'] } as const;
    expect(Object.fromEntries(Object.entries(ROUTE_THROTTLES).map(([name, c]) => [name, c.areas]))).toEqual(classes);
    const throttled = ROUTES.filter((r) =>
      Object.values(classes).some((areas) => (areas as readonly string[]).includes(r.area)),
    );
    expect(Object.keys(settings).sort()).toEqual(throttled.map(routeKey).sort());
    for (const [name, areas] of Object.entries(classes)) {
      const own = ROUTE_THROTTLES[name]!;
      for (const route of ROUTES.filter((r) => (areas as readonly string[]).includes(r.area)))
        expect(settings[routeKey(route)], routeKey(route)).toEqual({
          ThrottlingRateLimit: own.ratePerSecond,
          ThrottlingBurstLimit: own.burst,
        });
    }
    expect(settings['GET /t/o/{token}']).toEqual({ ThrottlingRateLimit: 500, ThrottlingBurstLimit: 1000 });
    expect(settings['POST /oauth/token']).toEqual({ ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 });
    // The sends and the rest of the REST API keep the stage's throttle (its DefaultRouteSettings).
    expect(settings['POST /emails']).toBeUndefined();
    expect(settings['POST /emails/batch']).toBeUndefined();
    expect(stage.Properties.DefaultRouteSettings).toMatchObject({ ThrottlingRateLimit: 25, ThrottlingBurstLimit: 50 });
    // Route settings may name only routes that exist: the stage is created after the routes' nested stack.
    const routesStack = Object.keys(template.findResources('AWS::CloudFormation::Stack')).find((id) =>
      id.startsWith('HttpRoutes'),
    );
    expect(routesStack).toBeDefined();
    expect([stage.DependsOn].flat(), stageId).toContain(routesStack);
    // docs/aws.md lists each class's limits beside the service's own (its row names the areas).
    const page = readFileSync(new URL('../../docs/aws.md', import.meta.url), 'utf8');
    const n = (x: number) => x.toLocaleString('en-US');
    for (const c of Object.values(ROUTE_THROTTLES)) {
      const row = page.split('\n').find((l) => l.startsWith('| ') && l.includes(`| \`${c.areas[0]}\``));
      expect(row, c.areas[0]).toContain(`| ${n(c.ratePerSecond)} / ${n(c.burst)} |`);
    }
  });

  it('keeps each work queue invisible for six times its worker timeout', () => {
    const queues = Object.entries(template.findResources('AWS::SQS::Queue'));
    for (const name of consumedQueues(TEST_MANIFEST.workers)) {
      const [, queue] = queues.find(
        ([id, q]) => id.startsWith(`Queues${name.replace(/-/g, '')}`) && q.Properties?.RedrivePolicy,
      )!;
      const longest = Math.max(...TEST_MANIFEST.workers.filter((w) => w.queue === name).map(workerTimeoutSeconds));
      expect({ name, visibility: queue.Properties.VisibilityTimeout }).toEqual({ name, visibility: 6 * longest });
    }
    template.hasResourceProperties('AWS::Lambda::Function', { Timeout: 40 });
  });

  it('passes the cdk-nag AwsSolutions pack: every finding fixed or acknowledged in code with a reason', () => {
    expect(nagFindings).toEqual([]);
    const acknowledged = stack.node
      .findAll()
      .flatMap((c) =>
        c.node.metadata
          .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
          .flatMap((m) => Object.values<any>(m.data)),
      );
    expect(acknowledged.length).toBeGreaterThan(0);
    for (const reason of acknowledged) expect(String(reason)).toMatch(/^\S.{20,}$/);
  });
});
