import { describe, expect, it } from 'vitest';
import type { Deps } from '@mailstack/core/runtime/deps';
import type { EmailItem } from '@mailstack/core/domain/emails/email';
import { broadcastSlotWait } from '@mailstack/core/domain/broadcasts/recipient-outcome';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const deps = { clock: { now: () => NOW } } as unknown as Deps;
const emailAt = (slotMs: number | null) => ({ slot_at: slotMs === null ? undefined : new Date(slotMs).toISOString() }) as EmailItem;

describe('broadcastSlotWait', () => {
  it.each([
    ['due now', 0, 0],
    ['past its slot', -5_000, 0],
    ['less than a second early', 400, 1],
    ['exactly a second early', 1_000, 1],
    ['a second and a bit early', 1_200, 2],
    ['beyond the queue\'s 15-minute delay', 3_600_000, 900],
  ])('holds a broadcast email until its slot, never before it (%s)', (_case, early, seconds) => {
    // Prepare
    const email = emailAt(NOW + early);

    // Act
    const wait = broadcastSlotWait(deps, email);

    // Assess
    expect(wait).toBe(seconds);
  });

  it('lets an email without a slot go at once', () => {
    expect(broadcastSlotWait(deps, emailAt(null))).toBe(0);
  });
});
