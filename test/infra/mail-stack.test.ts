import { beforeAll, describe, expect, it } from 'vitest';
import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { MailStack } from '../../lib/mail-stack.ts';
import { readStackConfig } from '../../lib/config.ts';
import { AREA_NEEDS, AREAS, ROUTES, routeKey } from '../../functions/routes.ts';
import { QUEUES } from '../../functions/workers.ts';
import { TABLE } from '@mailstack/core/table/definition';

/** A worker and a timer on an existing entry, so the generic wiring is exercised whatever the manifest holds today. */
const TEST_MANIFEST = {
  workers: [{ name: 'probe-worker', queue: 'send' as const, entry: 'usage/index', batchSize: 5, needs: { queues: ['send' as const], sesSending: true } }],
  timers: [{ name: 'probe-timer', entry: 'usage/index', everyMinutes: 1 }],
};

describe('MailStack', () => {
  let template: Template;
  let stack: MailStack;

  /** The Lambda function of an area (its logical id starts with Functions<area without dashes>). */
  const areaFunction = (area: string) => {
    const prefix = `Functions${area.replaceAll('-', '')}`;
    const found = Object.entries(template.findResources('AWS::Lambda::Function')).filter(([id]) => id.startsWith(prefix) && !id.slice(prefix.length).match(/^[a-z]/));
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

  beforeAll(() => {
    const app = new App({ context: { 'mailstack:deliveryRegions': 'us-east-1,eu-west-1' } });
    stack = new MailStack(app, 'Test', { config: readStackConfig((k) => app.node.tryGetContext(k)), manifest: TEST_MANIFEST });
    template = Template.fromStack(stack);
  }, 300_000);

  it('synthesizes without error annotations', () => {
    expect(Annotations.fromStack(stack).findError('*', Match.anyValue())).toEqual([]);
  });

  it('builds the table from the core definition: keys, every GSI and the TTL attribute', () => {
    template.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE.sortKey, KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: TABLE.ttlAttribute, Enabled: true },
      GlobalSecondaryIndexes: TABLE.indexes.map((i) => Match.objectLike({
        IndexName: i.name,
        KeySchema: [
          { AttributeName: i.partitionKey, KeyType: 'HASH' },
          { AttributeName: i.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      })),
    });
  });

  it('declares one API route per manifest entry, with the exact route key, and the $default route', () => {
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey).sort();
    expect(routes).toEqual([...ROUTES.map(routeKey), '$default'].sort());
  });

  it('gives every queue its own dead-letter queue', () => {
    const queues = template.findResources('AWS::SQS::Queue');
    const withDlq = Object.values(queues).filter((q) => q.Properties?.RedrivePolicy);
    expect(withDlq).toHaveLength(Object.keys(QUEUES).length);
    for (const q of withDlq) expect(q.Properties.RedrivePolicy.maxReceiveCount).toBe(5);
    expect(Object.keys(queues)).toHaveLength(Object.keys(QUEUES).length * 2);
  });

  it('feeds each worker from its queue with partial batch failures, and runs each timer on its rate', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { BatchSize: 5, FunctionResponseTypes: ['ReportBatchItemFailures'] });
    template.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(1 minute)' });
  });

  it('runs every function on Node 22, ARM64, with the table and queues bound', () => {
    const functions = Object.values(template.findResources('AWS::Lambda::Function')).filter((f) => f.Properties.Runtime?.startsWith('nodejs'));
    expect(functions.length).toBeGreaterThan(0);
    for (const f of functions.filter((f) => f.Properties.Environment?.Variables?.TABLE_NAME)) {
      expect(f.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'] });
      expect(Object.keys(f.Properties.Environment.Variables)).toEqual(expect.arrayContaining(['TABLE_NAME', 'DELIVERY_REGIONS', 'SES_CONFIGURATION_SET']));
      expect(f.Properties.Environment.Variables.DELIVERY_REGIONS).toBe('us-east-1,eu-west-1');
    }
  });

  it('grants SES sending only to the send workers and identity management only to the domains function', () => {
    const policies = Object.values(template.findResources('AWS::IAM::Policy'));
    const actionsOf = (p: any): string[] => p.Properties.PolicyDocument.Statement.flatMap((s: any) => [s.Action].flat());
    expect(policies.filter((p) => actionsOf(p).includes('ses:SendRawEmail'))).toHaveLength(1);
    expect(policies.filter((p) => actionsOf(p).includes('ses:CreateEmailIdentity'))).toHaveLength(1);
    for (const p of policies) expect(actionsOf(p)).not.toContain('*');
  });

  it('answers unknown routes through the catalog: a $default route to a function that touches no data', () => {
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route'));
    const fallback = routes.filter((r) => r.Properties.RouteKey === '$default');
    expect(fallback).toHaveLength(1);
    const unmatched = areaFunction('unmatched');
    expect(unmatched.Properties.Environment?.Variables?.TABLE_NAME).toBeUndefined();
    expect(actionsOfRole(unmatched)).toEqual(expect.not.arrayContaining(['dynamodb:PutItem']));
  });

  it('grants each area function only what the manifest declares it needs', () => {
    for (const area of AREAS) {
      const fn = areaFunction(area);
      const needs = AREA_NEEDS[area];
      const env = fn.Properties.Environment.Variables;
      const actions = actionsOfRole(fn);
      expect(Object.values(QUEUES).filter((q) => q.env in env).map((q) => q.env).sort(), area).toEqual((needs.queues ?? []).map((q) => QUEUES[q].env).sort());
      expect(actions.includes('scheduler:CreateSchedule'), area).toBe(needs.scheduler === true);
      expect('TOKEN_SECRET' in env, area).toBe(needs.linkSecret === true);
      expect(actions.includes('ses:CreateEmailIdentity'), area).toBe(needs.sesIdentities === true);
      expect(actions.includes('ses:SendRawEmail'), area).toBe(false);
    }
    // The public preference pages can never create schedules.
    expect(actionsOfRole(areaFunction('preferences'))).not.toContain('scheduler:CreateSchedule');
    expect(actionsOfRole(areaFunction('preferences'))).not.toContain('iam:PassRole');
  });

  it('sends SES events through SNS to the provider-events route', () => {
    template.resourceCountIs('AWS::SES::ConfigurationSet', 1);
    template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      EventDestination: Match.objectLike({ Enabled: true, MatchingEventTypes: Match.arrayWith(['send', 'delivery', 'bounce', 'complaint']) }),
    });
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'https', Endpoint: Match.anyValue() });
  });

  describe('the SMTP relay', () => {
    const resourceOf = (type: string, predicate: (r: any) => boolean = () => true): [string, any] => {
      const found = Object.entries(template.findResources(type)).filter(([, r]) => predicate(r));
      expect(found, type).toHaveLength(1);
      return found[0]!;
    };
    const policyOfRole = (roleLogicalId: string) =>
      resourceOf('AWS::IAM::Policy', (p) => p.Properties.Roles.some((r: any) => r.Ref === roleLogicalId))[1].Properties.PolicyDocument.Statement as any[];

    it('runs on Fargate (ARM64) from the repository\'s Dockerfile as an image asset, with a health check and logs kept a month', () => {
      const [, service] = resourceOf('AWS::ECS::Service');
      expect(service.Properties).toMatchObject({ LaunchType: 'FARGATE', DesiredCount: 2, DeploymentConfiguration: { DeploymentCircuitBreaker: { Enable: true, Rollback: true } } });
      const [, task] = resourceOf('AWS::ECS::TaskDefinition');
      expect(task.Properties.RuntimePlatform).toEqual({ CpuArchitecture: 'ARM64', OperatingSystemFamily: 'LINUX' });
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
      resourceOf('AWS::ElasticLoadBalancingV2::LoadBalancer', (r) => r.Properties.Type === 'network' && r.Properties.Scheme === 'internet-facing');
      const [, listener] = resourceOf('AWS::ElasticLoadBalancingV2::Listener', (r) => r.Properties.Port === 2587);
      expect(listener.Properties.Protocol).toBe('TCP');
      const group = template.toJSON().Resources[listener.Properties.DefaultActions[0].TargetGroupArn.Ref];
      expect(group.Properties).toMatchObject({ Port: 2587, Protocol: 'TCP', TargetType: 'ip', HealthCheckProtocol: 'HTTP', HealthCheckPort: '8025', HealthCheckPath: '/health' });
      expect(group.Properties.TargetGroupAttributes).toEqual(expect.arrayContaining([{ Key: 'preserve_client_ip.enabled', Value: 'true' }]));
      template.hasOutput('*', { Value: { 'Fn::GetAtt': [Match.stringLikeRegexp('SmtpNlb'), 'DNSName'] } });
    });

    it('reads the TLS certificate and key from the Secrets Manager secret named in context, granted to the execution role only', () => {
      const [, task] = resourceOf('AWS::ECS::TaskDefinition');
      const secrets = task.Properties.ContainerDefinitions[0].Secrets as { Name: string; ValueFrom: unknown }[];
      expect(secrets.map((s) => s.Name).sort()).toEqual(['SMTP_TLS_CERT', 'SMTP_TLS_KEY']);
      for (const s of secrets) expect(JSON.stringify(s.ValueFrom)).toMatch(/secret:mailstack\/smtp-tls:(certificate|key)::/);
      const executionGrant = policyOfRole(task.Properties.ExecutionRoleArn['Fn::GetAtt'][0]).find((st) => [st.Action].flat().includes('secretsmanager:GetSecretValue'));
      expect(JSON.stringify(executionGrant.Resource)).toContain('secret:mailstack/smtp-tls-??????');
      const taskActions = policyOfRole(task.Properties.TaskRoleArn['Fn::GetAtt'][0]).flatMap((st) => [st.Action].flat());
      expect(taskActions.filter((a: string) => a.startsWith('secretsmanager:'))).toEqual([]);
    });

    it('gives the task role the accept path\'s table and queue access, a namespaced metric put, and nothing else', () => {
      const [, task] = resourceOf('AWS::ECS::TaskDefinition');
      const statements = policyOfRole(task.Properties.TaskRoleArn['Fn::GetAtt'][0]);
      const services = new Set(statements.flatMap((st) => [st.Action].flat()).map((a: string) => a.split(':')[0]));
      expect([...services].sort()).toEqual(['cloudwatch', 'dynamodb', 'sqs']);
      const sqs = statements.filter((st) => [st.Action].flat().includes('sqs:SendMessage'));
      expect(sqs.map((st) => st.Resource['Fn::GetAtt'][0]).sort()).toEqual([expect.stringMatching(/^Queuesevents/), expect.stringMatching(/^Queuessend/)]);
      for (const st of statements) expect([st.Action].flat()).not.toContain('sqs:ReceiveMessage');
      const metric = statements.find((st) => st.Action === 'cloudwatch:PutMetricData');
      expect(metric.Condition).toEqual({ StringEquals: { 'cloudwatch:namespace': 'Mailstack/SmtpRelay' } });
      const dynamo = statements.find((st) => [st.Action].flat().includes('dynamodb:PutItem'));
      expect(JSON.stringify(dynamo.Resource)).toContain('DataTable');
    });

    it('scales from the desired count on open sessions per task', () => {
      const [, target] = resourceOf('AWS::ApplicationAutoScaling::ScalableTarget', (r) => r.Properties.ScalableDimension === 'ecs:service:DesiredCount');
      expect(target.Properties).toMatchObject({ MinCapacity: 2, MaxCapacity: 10 });
      template.hasResourceProperties('AWS::ApplicationAutoScaling::ScalingPolicy', {
        PolicyType: 'TargetTrackingScaling',
        TargetTrackingScalingPolicyConfiguration: Match.objectLike({
          TargetValue: 200,
          CustomizedMetricSpecification: Match.objectLike({ Namespace: 'Mailstack/SmtpRelay', MetricName: 'ActiveConnections', Statistic: 'Average' }),
        }),
      });
    });
  });

  it('fails synthesis with a clear message on a malformed region list', () => {
    expect(() => readStackConfig((k) => (k === 'mailstack:deliveryRegions' ? 'us-east-1,narnia' : undefined))).toThrow(/deliveryRegions must be/);
  });
});
