import { beforeAll, describe, expect, it } from 'vitest';
import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { MailStack } from '../../lib/mail-stack.ts';
import { readStackConfig } from '../../lib/config.ts';
import { ROUTES, routeKey } from '../../functions/routes.ts';
import { QUEUES } from '../../functions/workers.ts';
import { TABLE } from '@mailstack/core/table/definition';

/** A worker and a timer on an existing entry, so the generic wiring is exercised whatever the manifest holds today. */
const TEST_MANIFEST = {
  workers: [{ name: 'probe-worker', queue: 'send' as const, entry: 'usage/index', batchSize: 5 }],
  timers: [{ name: 'probe-timer', entry: 'usage/index', everyMinutes: 1 }],
};

describe('MailStack', () => {
  let template: Template;
  let stack: MailStack;

  beforeAll(() => {
    const app = new App({ context: { 'mailstack:deliveryRegions': 'us-east-1,eu-west-1' } });
    stack = new MailStack(app, 'Test', { config: readStackConfig((k) => app.node.tryGetContext(k)), manifest: TEST_MANIFEST });
    template = Template.fromStack(stack);
  }, 120_000);

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

  it('declares one API route per manifest entry, with the exact route key', () => {
    const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey).sort();
    expect(routes).toEqual(ROUTES.map(routeKey).sort());
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
      expect(Object.keys(f.Properties.Environment.Variables)).toEqual(expect.arrayContaining(['TABLE_NAME', 'DELIVERY_REGIONS', 'SES_CONFIGURATION_SET', ...Object.values(QUEUES).map((q) => q.env)]));
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

  it('sends SES events through SNS to the provider-events route', () => {
    template.resourceCountIs('AWS::SES::ConfigurationSet', 1);
    template.hasResourceProperties('AWS::SES::ConfigurationSetEventDestination', {
      EventDestination: Match.objectLike({ Enabled: true, MatchingEventTypes: Match.arrayWith(['send', 'delivery', 'bounce', 'complaint']) }),
    });
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'https', Endpoint: Match.anyValue() });
  });

  it('fails synthesis with a clear message on a malformed region list', () => {
    expect(() => readStackConfig((k) => (k === 'mailstack:deliveryRegions' ? 'us-east-1,narnia' : undefined))).toThrow(/deliveryRegions must be/);
  });
});
