import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { createDeps } from '@mailstack/core/runtime/deps';
import { readConfig } from '@mailstack/core/runtime/config';
import { takeSendSlot } from '@mailstack/core/table/send-slots';
import { local } from '../support/local.ts';

describe('the send line', () => {
  const at = (now: number) => createDeps(readConfig({ ...local().env, PROVIDER_RATE_PER_SECOND: '3' }), { clock: { now: () => now } });

  it('grants the provider rate per second and region, books every later place in order, and never waits', async () => {
    const now = 1_700_000_000_500;
    const second = Math.floor(now / 1000);
    const region = `test-${randomUUID()}`;
    const started = Date.now();
    const first = [];
    for (let i = 0; i < 10; i++) first.push(await takeSendSlot(at(now), region));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(first.filter((o) => o.granted)).toHaveLength(3);
    expect(first.map((o) => o.second - second)).toEqual([0, 0, 0, 1, 1, 1, 2, 2, 2, 3]);
    expect(first.slice(3).map((o) => o.retryInSeconds)).toEqual([1, 1, 1, 2, 2, 2, 3]);

    // Concurrent senders a second later: the booked places hold, nobody jumps the line, and no
    // second holds more than the rate.
    const later = await Promise.all(Array.from({ length: 12 }, () => takeSendSlot(at(now + 1000), region)));
    expect(later.filter((o) => o.granted)).toEqual([]);
    const perSecond = new Map<number, number>();
    for (const o of [...first, ...later]) perSecond.set(o.second, (perSecond.get(o.second) ?? 0) + 1);
    expect([...perSecond.entries()].sort((a, b) => a[0] - b[0])).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((k) => [second + k, k < 7 ? 3 : 1]));
  });

  it('restarts at the current second once the line has emptied', async () => {
    const now = 1_700_000_100_200;
    const region = `test-${randomUUID()}`;
    for (let i = 0; i < 5; i++) await takeSendSlot(at(now), region);
    const idle = await takeSendSlot(at(now + 60_000), region);
    expect(idle).toEqual({ granted: true, second: Math.floor((now + 60_000) / 1000), retryInSeconds: 0 });
  });
});
