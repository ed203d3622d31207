import { describe, expect, it } from 'vitest';
import {
  BroadcastTooLarge,
  MAX_BROADCAST_DAYS,
  broadcastRate,
  planBroadcast,
  regionBusyUntil,
  slotAt,
} from '@mailstack/core/domain/broadcasts/plan';

const NOON = Date.parse('2026-11-23T12:00:00Z');
const base = { providerRate: 14, now: NOON, requestedAt: NOON, busyUntil: 0, daily: null };

describe('the broadcast pacing planner', () => {
  it('keeps at least 30% of the provider rate for transactional mail', () => {
    for (const rate of [1, 2, 10, 14, 100, 1000]) {
      const b = broadcastRate(rate);
      if (rate >= 2) expect(rate - b).toBeGreaterThanOrEqual(rate * 0.3);
      expect(b).toBeGreaterThanOrEqual(1);
    }
    expect(broadcastRate(14)).toBe(9);
    const plan = planBroadcast({ ...base, audience: 900 });
    expect(plan.rate).toBe(9);
    // 900 recipients at 9 a second: the last one 99.89 s after the start.
    expect(plan.finishesAt - NOON).toBe(Math.floor((899 * 1000) / 9));
    expect(plan.warning).toBeNull();
  });

  it('finishes at the start for an empty audience and places each recipient at start + index / rate', () => {
    expect(planBroadcast({ ...base, audience: 0 })).toMatchObject({ finishesAt: NOON, days: 0, warning: null });
    const plan = planBroadcast({ ...base, audience: 100 });
    expect([0, 1, 9, 10].map((i) => slotAt(plan, i) - NOON)).toEqual([0, 111, 1000, 1111]);
  });

  it('warns `paced` when the audience runs past what today can hold at the broadcast rate', () => {
    const plan = planBroadcast({ ...base, audience: 1_000_000 });
    expect(plan.warning).toMatchObject({ type: 'paced', days: 2 });
    expect(plan.warning!.message).toContain('30%');
    // The 12 hours left today hold 388,800 at 9/s; the rest runs on the next UTC day.
    expect(plan.finishesAt).toBe(Date.parse('2026-11-24T00:00:00Z') + Math.floor(((999_999 - 388_800) * 1000) / 9));
    expect(plan.finishesAt).toBe(slotAt(plan, 999_999));
    expect(planBroadcast({ ...base, audience: 388_800 }).warning).toBeNull();
    expect(planBroadcast({ ...base, audience: 388_801 }).warning).toMatchObject({ type: 'paced' });
  });

  it('parks the part past the daily quota until the following UTC days (daily plans), and warns `paced`', () => {
    const plan = planBroadcast({ ...base, audience: 250, daily: { cap: 100, usedToday: 40 } });
    expect(plan.warning).toMatchObject({ type: 'paced', days: 3 });
    expect(plan.warning!.message).toContain('daily quota');
    // Today holds 60, tomorrow 100, the day after the last 90.
    expect(slotAt(plan, 59)).toBeLessThan(Date.parse('2026-11-24T00:00:00Z'));
    expect(slotAt(plan, 60)).toBe(Date.parse('2026-11-24T00:00:00Z'));
    expect(slotAt(plan, 160)).toBe(Date.parse('2026-11-25T00:00:00Z'));
    expect(plan.finishesAt).toBe(Date.parse('2026-11-25T00:00:00Z') + Math.floor((89 * 1000) / 9));
  });

  it('warns `queued_behind` when other broadcasts hold the region, and starts after them', () => {
    const busyUntil = NOON + 3_600_000;
    const plan = planBroadcast({ ...base, audience: 90, busyUntil });
    expect(plan.startsAt).toBe(busyUntil);
    expect(plan.finishesAt).toBe(busyUntil + Math.floor((89 * 1000) / 9));
    expect(plan.warning).toMatchObject({ type: 'queued_behind', days: 1 });
    expect(plan.warning!.message).toContain(new Date(busyUntil).toISOString());
  });

  it('starts at a scheduled time, with no warning when the audience fits that day', () => {
    const at = NOON + 7_200_000;
    const plan = planBroadcast({ ...base, audience: 10, requestedAt: at });
    expect(plan).toMatchObject({ startsAt: at, warning: null, days: 1 });
  });

  it(`refuses an audience needing more than ${MAX_BROADCAST_DAYS} days of capacity, and accepts one that fits`, () => {
    expect(() => planBroadcast({ ...base, audience: 2_500, daily: { cap: 100, usedToday: 0 } })).toThrow(
      BroadcastTooLarge,
    );
    expect(() => planBroadcast({ ...base, audience: 2_400, daily: { cap: 100, usedToday: 0 } })).not.toThrow();
    try {
      planBroadcast({ ...base, audience: 50_000_000 });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(BroadcastTooLarge);
      expect((error as Error).message).toMatch(/needs about \d+ days .* limit is 24 days/);
    }
  });
  it('parks past the monthly included volume (overage off) until the period renews, without counting the wait toward the 24 days', () => {
    const renewsAt = Date.parse('2026-12-01T00:00:00Z');
    const plan = planBroadcast({ ...base, audience: 1_000, monthly: { left: 400, renewsAt } });
    // The first 400 go now at 9 a second; the 401st waits for the renewal and the rest follow at the same rate.
    expect(slotAt(plan, 399) - NOON).toBe(Math.floor((399 * 1000) / 9));
    expect(slotAt(plan, 400)).toBe(renewsAt);
    expect(plan.finishesAt).toBe(renewsAt + Math.floor((599 * 1000) / 9));
    expect(plan.warning).toMatchObject({ type: 'paced', days: 9 });
    expect(plan.warning!.message).toContain('2026-12-01T00:00:00.000Z');
    // Enough left in the period: no parking, no warning.
    expect(planBroadcast({ ...base, audience: 1_000, monthly: { left: 1_000, renewsAt } })).toMatchObject({
      finishesAt: NOON + Math.floor((999 * 1000) / 9),
      warning: null,
    });
    // Nothing left: everyone waits for the renewal.
    expect(slotAt(planBroadcast({ ...base, audience: 10, monthly: { left: 0, renewsAt } }), 0)).toBe(renewsAt);
    // A renewal more than 24 days out is a wait, not a refusal; sending past 24 days still is.
    const far = Date.parse('2027-01-20T00:00:00Z');
    expect(planBroadcast({ ...base, audience: 10, monthly: { left: 0, renewsAt: far } }).finishesAt).toBe(
      far + Math.floor((9 * 1000) / 9),
    );
    expect(() =>
      planBroadcast({ ...base, audience: 9 * 86_400 * (MAX_BROADCAST_DAYS + 1), monthly: { left: 0, renewsAt: far } }),
    ).toThrow(BroadcastTooLarge);
  });

  it("holds the region for a broadcast until its last send, or until its first parking when the team's quota parks the rest", () => {
    // Sent without a break (even across UTC days at the provider rate): held to the last send.
    const straight = planBroadcast({ ...base, audience: 9 * 86_400 });
    expect(regionBusyUntil(straight)).toBe(straight.finishesAt);
    const small = planBroadcast({ ...base, audience: 50, daily: { cap: 100, usedToday: 10 } });
    expect(regionBusyUntil(small)).toBe(small.finishesAt);
    // A daily quota parks the rest until tomorrow: the region is free after today's 3 sends.
    const parked = planBroadcast({ ...base, audience: 6, daily: { cap: 100, usedToday: 97 } });
    expect(parked.finishesAt).toBeGreaterThan(Date.parse('2026-11-24T00:00:00Z'));
    expect(regionBusyUntil(parked)).toBe(slotAt(parked, 2));
    expect(regionBusyUntil(parked)).toBeLessThan(NOON + 1_000);
    // Nothing left today: held only at the start.
    const none = planBroadcast({ ...base, audience: 6, daily: { cap: 100, usedToday: 100 } });
    expect(regionBusyUntil(none)).toBe(none.startsAt);
    // Monthly volume parks the rest until renewal: free after the 4 the period still holds.
    const monthly = planBroadcast({
      ...base,
      audience: 10,
      monthly: { left: 4, renewsAt: Date.parse('2026-12-01T00:00:00Z') },
    });
    expect(regionBusyUntil(monthly)).toBe(slotAt(monthly, 3));
  });
});
