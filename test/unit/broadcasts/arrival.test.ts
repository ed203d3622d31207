import { describe, expect, it } from 'vitest';
import { arrivalDelaySeconds } from '@mailstack/core/domain/broadcasts/fan-out';
import { broadcastRate, planBroadcast, slotAt } from '@mailstack/core/domain/broadcasts/plan';

const NOON = Date.parse('2026-11-23T12:00:00Z');

describe("a broadcast recipient's send job", () => {
  it('arrives in the calendar second after its slot, never before the slot, so no second gets more arrivals than the broadcast share', () => {
    // A plan starting part-way into a second, its pages queued at different points early in a second.
    const plan = planBroadcast({
      audience: 600,
      providerRate: 14,
      now: NOON + 437,
      requestedAt: NOON + 437,
      busyUntil: 0,
      daily: null,
    });
    for (const queuedAt of [NOON + 437, NOON + 2_000, NOON + 2_299, NOON + 31_150]) {
      const arrivals = new Map<number, number>();
      for (let i = 0; i < plan.audience; i++) {
        const slot = slotAt(plan, i);
        if (slot < queuedAt) continue;
        const arrival = queuedAt + arrivalDelaySeconds(slot, queuedAt) * 1000;
        expect(arrival).toBeGreaterThanOrEqual(slot);
        expect(Math.floor(arrival / 1000)).toBe(Math.floor(slot / 1000) + 1);
        arrivals.set(Math.floor(arrival / 1000), (arrivals.get(Math.floor(arrival / 1000)) ?? 0) + 1);
      }
      expect(Math.max(...arrivals.values())).toBe(broadcastRate(14));
    }
  });

  it('is not delayed when its slot has passed (a resumed fan-out), and never more than the 15 minutes a queue can delay', () => {
    expect(arrivalDelaySeconds(NOON - 5_000, NOON)).toBe(0);
    expect(arrivalDelaySeconds(NOON + 3_600_000, NOON)).toBe(900);
  });
});
