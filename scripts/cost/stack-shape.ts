/**
 * The stack's always-on resources for the cost model, read from its synthesized template (the
 * settings of cdk.json, bundling skipped): function memory, tracing, alarms, dashboards, secrets,
 * polled queues, timer rates, and with the relay turned on its tasks, load balancer and public addresses.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { MailStack } from '../../lib/mail-stack.ts';
import { readStackConfig } from '../../lib/config.ts';

/** Alarms Application Auto Scaling makes for one target-tracking policy (high and low). */
const TARGET_TRACKING_ALARMS = 2;
/** Container Insights metrics of one cluster with one service (cluster and service level; an estimate). */
const CONTAINER_INSIGHTS_METRICS = 20;

const synth = (relay: boolean): Template => {
  const cdkJson = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as {
    context: Record<string, unknown>;
  };
  const outdir = mkdtempSync(join(tmpdir(), 'mailstack-cost-'));
  try {
    const app = new App({
      outdir,
      context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [], 'mailstack:smtpRelay': relay },
    });
    const config = readStackConfig((k) => app.node.tryGetContext(k));
    return Template.fromStack(new MailStack(app, config.stackName, { config }));
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
};

const resources = (template: Template, type: string): any[] => Object.values(template.findResources(type));

/** What the model needs of the stack, relay off and relay on. */
export const readStackShape = (hoursPerMonth: number) => {
  const off = synth(false);
  const on = synth(true);
  const memories = resources(off, 'AWS::Lambda::Function')
    .filter((f) => String(f.Properties.Runtime).startsWith('nodejs22'))
    .map((f) => Number(f.Properties.MemorySize));
  const memoryMb = [...new Set(memories)];
  if (memoryMb.length !== 1)
    throw new Error(
      `the model prices every invocation at one memory size; the stack's functions have ${memoryMb.join(', ')} MB: give the model each function's invocations`,
    );
  const minutesPerMonth = hoursPerMonth * 60;
  const timerRunsPerMonth = resources(off, 'AWS::Events::Rule').reduce((n: number, rule) => {
    const m = /^rate\((\d+) minutes?\)$/.exec(String(rule.Properties.ScheduleExpression ?? ''));
    return m ? n + minutesPerMonth / Number(m[1]) : n;
  }, 0);
  const service = resources(on, 'AWS::ECS::Service')[0];
  const task = resources(on, 'AWS::ECS::TaskDefinition')[0];
  const nlbs = resources(on, 'AWS::ElasticLoadBalancingV2::LoadBalancer').filter(
    (lb) => lb.Properties.Scheme === 'internet-facing',
  );
  const tasks = Number(service.Properties.DesiredCount);
  const taskIps =
    service.Properties.NetworkConfiguration?.AwsvpcConfiguration?.AssignPublicIp === 'ENABLED' ? tasks : 0;
  // An internet-facing load balancer holds a public address in each of its subnets (one per zone).
  const nlbIps = nlbs.reduce(
    (n: number, lb) => n + (lb.Properties.Subnets?.length ?? lb.Properties.SubnetMappings?.length ?? 0),
    0,
  );
  return {
    functionMemoryMb: memoryMb[0]!,
    alarms: resources(off, 'AWS::CloudWatch::Alarm').length,
    dashboards: resources(off, 'AWS::CloudWatch::Dashboard').length,
    secrets: resources(off, 'AWS::SecretsManager::Secret').length,
    polledQueues: resources(off, 'AWS::Lambda::EventSourceMapping').length,
    platformLogLines: resources(off, 'AWS::Lambda::Function').some(
      (f) => !['WARN', 'ERROR', 'FATAL'].includes(f.Properties.LoggingConfig?.SystemLogLevel),
    ),
    tracing: resources(off, 'AWS::Lambda::Function').some((f) => f.Properties.TracingConfig?.Mode === 'Active'),
    timerRunsPerMonth,
    timers: resources(off, 'AWS::Events::Rule').length,
    relay: {
      tasks,
      vcpu: Number(task.Properties.Cpu) / 1024,
      memoryGb: Number(task.Properties.Memory) / 1024,
      loadBalancers: nlbs.length,
      publicIpv4: taskIps + nlbIps,
      scalingAlarms: resources(on, 'AWS::ApplicationAutoScaling::ScalingPolicy').length * TARGET_TRACKING_ALARMS,
      // The TLS certificate's secret is made by the operator, not the stack.
      secrets: 1,
      containerInsightsMetrics: resources(on, 'AWS::ECS::Cluster').length > 0 ? CONTAINER_INSIGHTS_METRICS : 0,
      extraAlarms: resources(on, 'AWS::CloudWatch::Alarm').length - resources(off, 'AWS::CloudWatch::Alarm').length,
    },
  };
};
