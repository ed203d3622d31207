import { describe, expect, it } from 'vitest';
import { DEFAULTS } from '@mailstack/core/defaults';
import { readConfig } from '@mailstack/core/runtime/config';
import { readStackConfig } from '../../../lib/config.ts';

describe('the deployment defaults', () => {
  it('are one object: the stack with no context and the runtime with no environment both take them', () => {
    // Act
    const stack = readStackConfig(() => undefined);
    const runtime = readConfig({ TABLE_NAME: 'mailstack' });

    // Assess
    expect({
      deliveryRegion: stack.deliveryRegions[0],
      cloud: stack.cloud,
      providerRatePerSecond: stack.providerRatePerSecond,
      apiRateLimitPerMinute: stack.apiRateLimitPerMinute,
      systemSender: stack.systemSender,
      smtpRelay: stack.smtp.enabled,
      smtpTlsSecretName: stack.smtp.tlsSecretName,
      smtpDesiredCount: stack.smtp.desiredCount,
      smtpMaxCount: stack.smtp.maxCount,
      bounceRateWarning: stack.deliverability.bounceRateWarning,
      bounceRatePause: stack.deliverability.bounceRatePause,
      complaintRateWarning: stack.deliverability.complaintRateWarning,
      complaintRatePause: stack.deliverability.complaintRatePause,
      deliverabilityMinSent: stack.deliverability.minSent,
    }).toEqual(DEFAULTS);
    expect({
      deliveryRegion: runtime.DELIVERY_REGIONS[0],
      cloud: runtime.CLOUD,
      providerRatePerSecond: runtime.PROVIDER_RATE_PER_SECOND,
      apiRateLimitPerMinute: runtime.API_RATE_LIMIT_PER_MINUTE,
      systemSender: runtime.SYSTEM_SENDER,
      bounceRateWarning: runtime.BOUNCE_RATE_WARNING,
      bounceRatePause: runtime.BOUNCE_RATE_PAUSE,
      complaintRateWarning: runtime.COMPLAINT_RATE_WARNING,
      complaintRatePause: runtime.COMPLAINT_RATE_PAUSE,
      deliverabilityMinSent: runtime.DELIVERABILITY_MIN_SENT,
    }).toEqual({
      deliveryRegion: DEFAULTS.deliveryRegion,
      cloud: DEFAULTS.cloud,
      providerRatePerSecond: DEFAULTS.providerRatePerSecond,
      apiRateLimitPerMinute: DEFAULTS.apiRateLimitPerMinute,
      systemSender: DEFAULTS.systemSender,
      bounceRateWarning: DEFAULTS.bounceRateWarning,
      bounceRatePause: DEFAULTS.bounceRatePause,
      complaintRateWarning: DEFAULTS.complaintRateWarning,
      complaintRatePause: DEFAULTS.complaintRatePause,
      deliverabilityMinSent: DEFAULTS.deliverabilityMinSent,
    });
  });

  it("puts the team guardrail's default lines below SES's review lines (5% bounces, 0.1% complaints), each warning before its pause", () => {
    expect(DEFAULTS.bounceRateWarning).toBeLessThan(DEFAULTS.bounceRatePause);
    expect(DEFAULTS.bounceRatePause).toBeLessThan(0.05);
    expect(DEFAULTS.complaintRateWarning).toBeLessThan(DEFAULTS.complaintRatePause);
    expect(DEFAULTS.complaintRatePause).toBeLessThan(0.001);
    // One bounce of three emails counts for nothing.
    expect(DEFAULTS.deliverabilityMinSent).toBeGreaterThan(3);
  });

  it('reads the guardrail lines from context and refuses a line at or past SES pause line, or a warning above its pause', () => {
    const read = (context: Record<string, unknown>) => readStackConfig((k) => context[k]);
    expect(
      read({ 'mailstack:bounceRatePause': '0.03', 'mailstack:deliverabilityMinSent': 500 }).deliverability,
    ).toMatchObject({ bounceRatePause: 0.03, minSent: 500 });
    expect(() => read({ 'mailstack:bounceRatePause': 0.1 })).toThrow(/mailstack:bounceRatePause must be a fraction/);
    expect(() => read({ 'mailstack:complaintRateWarning': 0.001 })).toThrow(
      /complaintRateWarning \(0.001\) must not be above mailstack:complaintRatePause/,
    );
    expect(() => readConfig({ TABLE_NAME: 'mailstack', BOUNCE_RATE_PAUSE: '4' })).toThrow(/BOUNCE_RATE_PAUSE/);
  });
});
