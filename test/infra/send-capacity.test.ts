import { describe, expect, it } from 'vitest';
import { App } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { MailStack } from '../../lib/mail-stack.ts';
import { readStackConfig } from '../../lib/config.ts';
import { WORKERS } from '../../functions/workers.ts';

/** Synthesizes the stack with these context settings (bundling skipped). */
const synth = (context: Record<string, unknown>) => {
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [], ...context } });
  const config = readStackConfig((k) => app.node.tryGetContext(k));
  const stack = new MailStack(app, config.stackName, { config });
  return { template: Template.fromStack(stack), annotations: Annotations.fromStack(stack) };
};

/** The maximum concurrency of each event source that has one (the workers that send through SES). */
const capped = (template: Template): unknown[] =>
  Object.values(template.findResources('AWS::Lambda::EventSourceMapping'))
    .map((m) => m.Properties.ScalingConfig?.MaximumConcurrency)
    .filter((c) => c !== undefined);

const SENDERS = WORKERS.filter((w) => w.needs?.sesSending);

describe("the sending workers' concurrency follows the rate", () => {
  it('at the default 14 a second: 2 invocations of each sending worker, and no warning', () => {
    // Act
    const { template, annotations } = synth({});
    // Assess: send, send-later and broadcast, each in batches of 10.
    expect(SENDERS.map((w) => w.batchSize)).toEqual([10, 10, 10]);
    expect(capped(template)).toEqual([2, 2, 2]);
    annotations.hasNoWarning('*', Match.stringLikeRegexp('mailstack:sendCapacity'));
  }, 120_000);

  it('at 1,000 a second: 51 invocations of each (2 × 1,000 × 0.25 s / 10, plus one)', () => {
    // Act
    const { template, annotations } = synth({ 'mailstack:providerRatePerSecond': 1000 });
    // Assess
    expect(capped(template)).toEqual([51, 51, 51]);
    annotations.hasNoWarning('*', Match.stringLikeRegexp('mailstack:sendCapacity'));
  }, 120_000);

  it('set with mailstack:sendConcurrency, takes that figure and warns when it cannot hold the rate', () => {
    // Act
    const { template, annotations } = synth({
      'mailstack:providerRatePerSecond': 1000,
      'mailstack:sendConcurrency': 3,
    });
    // Assess
    expect(capped(template)).toEqual([3, 3, 3]);
    annotations.hasWarning(
      '*',
      Match.stringLikeRegexp(
        'send-email runs at most 3 invocations at once, which hold about 40 sends a second, under mailstack:providerRatePerSecond \\(1000\\); the rate needs 51',
      ),
    );
  }, 120_000);
});
