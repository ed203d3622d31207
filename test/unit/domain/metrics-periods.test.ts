import { describe, expect, it } from 'vitest';
import { hoursIn, isTimezone, periodOf } from '@mailstack/core/domain/metrics/periods';

const at = (iso: string) => Date.parse(iso);

describe('email metrics periods: UTC hours summed into a timezone', () => {
  it('puts each UTC hour in its local day, week (from Monday) and month', () => {
    const paris = (g: Parameters<typeof periodOf>[1]) => periodOf('Europe/Paris', g);
    // 23:00 UTC on 31 Jan is 00:00 on 1 Feb in Paris (UTC+1 in winter).
    expect(paris('daily')(at('2026-01-31T23:00:00Z'))).toBe('2026-01-31T23:00:00.000Z');
    expect(paris('daily')(at('2026-01-31T22:59:00Z'))).toBe('2026-01-30T23:00:00.000Z');
    expect(paris('monthly')(at('2026-01-31T23:30:00Z'))).toBe('2026-01-31T23:00:00.000Z');
    expect(paris('monthly')(at('2026-01-31T22:00:00Z'))).toBe('2025-12-31T23:00:00.000Z');
    // Sunday 8 Feb 2026 belongs to the week starting Monday 2 Feb.
    expect(paris('weekly')(at('2026-02-08T12:00:00Z'))).toBe('2026-02-01T23:00:00.000Z');
    expect(paris('weekly')(at('2026-02-08T23:00:00Z'))).toBe('2026-02-08T23:00:00.000Z');
    expect(paris('hourly')(at('2026-02-08T12:34:56Z'))).toBe('2026-02-08T12:00:00.000Z');
  });

  it('follows daylight saving time: the day after the change starts at the new offset', () => {
    const ny = periodOf('America/New_York', 'daily');
    // 8 March 2026: clocks go forward; midnight is 05:00 UTC before, 04:00 UTC after.
    expect(ny(at('2026-03-08T12:00:00Z'))).toBe('2026-03-08T05:00:00.000Z');
    expect(ny(at('2026-03-09T12:00:00Z'))).toBe('2026-03-09T04:00:00.000Z');
    // The changed day is 23 hours long: its last UTC hour still belongs to it.
    expect(ny(at('2026-03-09T03:00:00Z'))).toBe('2026-03-08T05:00:00.000Z');
  });

  it('puts an hour of a half-hour zone in the local period its start falls in', () => {
    const kolkata = periodOf('Asia/Kolkata', 'daily');
    // 18:00 UTC is 23:30 in Kolkata: the hour counts for that day; 18:30 (midnight) would be the next.
    expect(kolkata(at('2026-05-01T18:00:00Z'))).toBe('2026-04-30T18:30:00.000Z');
    expect(kolkata(at('2026-05-01T19:00:00Z'))).toBe('2026-05-01T18:30:00.000Z');
  });

  it('lists the UTC hours a range touches, and knows timezones', () => {
    expect(hoursIn(at('2026-05-01T10:30:00Z'), at('2026-05-01T13:00:00Z'))).toEqual([
      '2026-05-01T10',
      '2026-05-01T11',
      '2026-05-01T12',
    ]);
    expect(isTimezone('Asia/Tokyo')).toBe(true);
    expect(isTimezone('UTC')).toBe(true);
    expect(isTimezone('Mars/Olympus')).toBe(false);
  });
});
