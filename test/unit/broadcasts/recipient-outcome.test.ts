import { describe, expect, it } from 'vitest';
import type { Deps } from '@mailstack/core/runtime/deps';
import type { EmailItem } from '@mailstack/core/domain/emails/email';
import { broadcastCanceled, broadcastSlotWait } from '@mailstack/core/domain/broadcasts/recipient-outcome';

const NOW = Date.parse('2026-11-23T12:00:00Z');
const deps = { clock: { now: () => NOW } } as unknown as Deps;
const emailAt = (slotMs: number | null) =>
  ({ slot_at: slotMs === null ? undefined : new Date(slotMs).toISOString() }) as EmailItem;

describe('broadcastSlotWait', () => {
  it.each([
    ['due now', 0, 0],
    ['past its slot', -5_000, 0],
    ['less than a second early', 400, 1],
    ['exactly a second early', 1_000, 1],
    ['a second and a bit early', 1_200, 2],
    ["beyond the queue's 15-minute delay", 3_600_000, 900],
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

describe('broadcastCanceled', () => {
  it('reads the broadcast once for the jobs of a batch, side by side', async () => {
    // Prepare: a send worker's batch of ten queued emails of one broadcast, and a table that counts its reads.
    let reads = 0;
    const counting = {
      clock: { now: () => NOW },
      table: 'mailstack',
      tableStore: {
        get: async () => {
          reads++;
          await new Promise((r) => setTimeout(r, 20));
          return { Item: { pk: 'p', sk: 's', type: 'broadcast', status: 'sending' } };
        },
      },
    } as unknown as Deps;
    const emails = Array.from(
      { length: 10 },
      (_, i) =>
        ({
          id: `e${i}`,
          team_id: 't1',
          broadcast_id: 'b-batch',
          contact_id: `c${i}`,
          status: 'queued',
        }) as unknown as EmailItem,
    );

    // Act
    const canceled = await Promise.all(emails.map((e) => broadcastCanceled(counting, e)));

    // Assess
    expect(canceled).toEqual(Array(10).fill(false));
    expect(reads).toBe(1);
  });
});
