import { describe, expect, it } from 'vitest';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { MailStack } from '../../lib/mail-stack.ts';
import { readStackConfig } from '../../lib/config.ts';

/** The relay's always-on resources: none of them may exist unless the relay is turned on. */
const RELAY_TYPES = [
  'AWS::EC2::VPC',
  'AWS::EC2::Subnet',
  'AWS::EC2::FlowLog',
  'AWS::EC2::SecurityGroup',
  'AWS::ElasticLoadBalancingV2::LoadBalancer',
  'AWS::ElasticLoadBalancingV2::Listener',
  'AWS::ECS::Cluster',
  'AWS::ECS::Service',
  'AWS::ECS::TaskDefinition',
  'AWS::ApplicationAutoScaling::ScalableTarget',
];

/** Synthesizes the stack with these context settings (bundling skipped) and counts each relay resource type. */
const synth = (context: Record<string, unknown>) => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const config = readStackConfig((k) => app.node.tryGetContext(k));
  const template = Template.fromStack(new MailStack(app, config.stackName, { config }));
  const counts = Object.fromEntries(
    RELAY_TYPES.map((type) => [type, Object.keys(template.findResources(type)).length]),
  );
  return { template, counts };
};

describe('the SMTP relay is opt-in (mailstack:smtpRelay)', () => {
  it('is off by default: no VPC, load balancer, cluster, service or tasks, and every log group has a retention', () => {
    // Act
    const { template, counts } = synth({});
    // Assess
    expect(counts).toEqual(Object.fromEntries(RELAY_TYPES.map((type) => [type, 0])));
    expect(template.toJSON().Outputs?.SmtpSmtpHost).toBeUndefined();
    const groups = Object.entries(template.findResources('AWS::Logs::LogGroup'));
    expect(groups.length).toBeGreaterThan(10);
    expect(
      groups.filter(([, g]) => g.Properties?.RetentionInDays === undefined).map(([id]) => id),
      'log groups kept forever',
    ).toEqual([]);
  }, 120_000);

  it('turned on, runs the relay: its VPC, network load balancer, cluster and one Fargate service of the smallest ARM64 tasks', () => {
    // Act
    const { template, counts } = synth({ 'mailstack:smtpRelay': 'true' });
    // Assess
    expect(counts).toMatchObject({
      'AWS::EC2::VPC': 1,
      'AWS::EC2::FlowLog': 1,
      'AWS::ElasticLoadBalancingV2::LoadBalancer': 1,
      'AWS::ECS::Cluster': 1,
      'AWS::ECS::Service': 1,
      'AWS::ECS::TaskDefinition': 1,
    });
    template.hasResourceProperties('AWS::ECS::TaskDefinition', {
      Cpu: '256',
      Memory: '512',
      RuntimePlatform: { CpuArchitecture: 'ARM64', OperatingSystemFamily: 'LINUX' },
    });
    // The output docs/aws.md tells operators to point smtp.<domain> at.
    expect(Object.keys(template.findOutputs('SmtpHost'))).toEqual(['SmtpHost']);
  }, 120_000);

  it('refuses a value other than true or false, naming the key', () => {
    expect(() => readStackConfig((k) => (k === 'mailstack:smtpRelay' ? 'yes' : undefined))).toThrow(
      /mailstack:smtpRelay must be true or false, got "yes"/,
    );
  });
});

describe('X-Ray tracing is opt-in (mailstack:tracing)', () => {
  const modes = (template: Template) =>
    Object.values(template.findResources('AWS::Lambda::Function'))
      .filter((f) => f.Properties.Runtime === 'nodejs22.x')
      .map((f) => f.Properties.TracingConfig?.Mode ?? 'none');

  it('is off by default: no function traces (X-Ray bills each traced invocation)', () => {
    const { template } = synth({});
    const off = modes(template);
    expect(off.length).toBeGreaterThan(10);
    expect([...new Set(off)]).toEqual(['none']);
  }, 120_000);

  it('turned on, every function traces actively', () => {
    const { template } = synth({ 'mailstack:tracing': true });
    expect([...new Set(modes(template))]).toEqual(['Active']);
  }, 120_000);
});

describe('SES tenants are opt-in (mailstack:sesTenants)', () => {
  it('are off by default: no function may make a tenant, and every function sends as the account', () => {
    // Act
    const { template } = synth({});
    // Assess
    const actions = Object.values(template.findResources('AWS::IAM::Policy')).flatMap((p) =>
      p.Properties.PolicyDocument.Statement.flatMap((st: any) => [st.Action].flat()),
    );
    expect(actions).not.toContain('ses:CreateTenant');
    expect(actions).not.toContain('ses:CreateConfigurationSet');
    const functions = Object.values(template.findResources('AWS::Lambda::Function')).filter(
      (f) => f.Properties.Environment?.Variables?.SES_CONFIGURATION_SET,
    );
    expect(functions.length).toBeGreaterThan(0);
    for (const f of functions) expect(f.Properties.Environment.Variables.SES_TENANTS).toBe('false');
  }, 120_000);
});
