import { describe, expect, it } from 'vitest';
import { isDue, waitingKeys } from '@mailstack/core/domain/emails/email';

const base = {
  id: '0190e6a2-0000-7000-8000-00000000abcd',
  team_id: 't1',
  created_at: '2026-01-01T10:00:00.000Z',
  scheduled_at: null as string | null,
};

describe('where a waiting email is indexed', () => {
  it('puts queued mail on the send-due index at its acceptance and scheduled mail at its time', () => {
    expect(waitingKeys({ ...base, status: 'queued' })).toMatchObject({
      gsi3pk: expect.stringMatching(/^DUE#SEND#\d+$/),
      gsi3sk: `2026-01-01T10:00:00.000Z#${base.id}`,
    });
    expect(waitingKeys({ ...base, status: 'scheduled', scheduled_at: '2026-01-08T10:00:00.000Z' })).toMatchObject({
      gsi3sk: `2026-01-08T10:00:00.000Z#${base.id}`,
    });
  });

  it("puts parked mail on the parked index at its release time, held mail in its team's held list, and sent mail nowhere", () => {
    expect(waitingKeys({ ...base, status: 'queued_quota' }, '2026-01-02T00:00:00.000Z')).toMatchObject({
      gsi3pk: expect.stringMatching(/^DUE#PARKED#\d+$/),
      gsi3sk: `2026-01-02T00:00:00.000Z#${base.id}`,
    });
    expect(waitingKeys({ ...base, status: 'held' })).toEqual({ gsi2pk: 'TEAM#t1#HELD', gsi2sk: base.id });
    expect(waitingKeys({ ...base, status: 'sent' })).toEqual({});
  });

  it('says a scheduled email is due from a second before its time', () => {
    const at = Date.parse('2026-01-08T10:00:00.000Z');
    expect(isDue({ status: 'scheduled', scheduled_at: '2026-01-08T10:00:00.000Z' }, at - 2000)).toBe(false);
    expect(isDue({ status: 'scheduled', scheduled_at: '2026-01-08T10:00:00.000Z' }, at - 1000)).toBe(true);
    expect(isDue({ status: 'queued', scheduled_at: null }, 0)).toBe(true);
  });
});
