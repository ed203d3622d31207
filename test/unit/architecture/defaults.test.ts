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
    }).toEqual(DEFAULTS);
    expect({
      deliveryRegion: runtime.DELIVERY_REGIONS[0],
      cloud: runtime.CLOUD,
      providerRatePerSecond: runtime.PROVIDER_RATE_PER_SECOND,
      apiRateLimitPerMinute: runtime.API_RATE_LIMIT_PER_MINUTE,
      systemSender: runtime.SYSTEM_SENDER,
    }).toEqual({
      deliveryRegion: DEFAULTS.deliveryRegion,
      cloud: DEFAULTS.cloud,
      providerRatePerSecond: DEFAULTS.providerRatePerSecond,
      apiRateLimitPerMinute: DEFAULTS.apiRateLimitPerMinute,
      systemSender: DEFAULTS.systemSender,
    });
  });
});
