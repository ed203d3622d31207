import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createDeps } from '@mailstack/core/runtime/deps';
import { readConfig } from '@mailstack/core/runtime/config';
import { takeSendSlot } from '@mailstack/core/table/send-slots';
import { local } from '../support/local.ts';

describe('send slots', () => {
  it('grant the provider rate per second and region, never more, and spread refused sends over the seconds ahead without waiting', async () => {
    const now = 1_700_000_000_500;
    const deps = createDeps(readConfig({ ...local().env, PROVIDER_RATE_PER_SECOND: '3' }), { clock: { now: () => now } });
    const region = `test-${randomUUID()}`;
    const started = Date.now();
    const outcomes = [];
    for (let i = 0; i < 10; i++) outcomes.push(await takeSendSlot(deps, region));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(outcomes.filter((o) => o.granted)).toHaveLength(3);
    expect(outcomes.slice(3).map((o) => (o.granted ? 0 : o.retryInSeconds))).toEqual([1, 1, 1, 2, 2, 2, 3]);
    // concurrent takers in the next second: still exactly the rate
    const later = createDeps(readConfig({ ...local().env, PROVIDER_RATE_PER_SECOND: '3' }), { clock: { now: () => now + 1000 } });
    const concurrent = await Promise.all(Array.from({ length: 12 }, () => takeSendSlot(later, region)));
    expect(concurrent.filter((o) => o.granted)).toHaveLength(3);
  });
});
