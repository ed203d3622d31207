/**
 * Periods in an IANA timezone, built from UTC hours: the counters are hourly in UTC, and a
 * timezone's hour, day, ISO week (from Monday) or month is the sum of the UTC hours that start in
 * it. In the few zones whose offset is not whole hours (Asia/Kolkata, +05:30) a UTC hour belongs to
 * the local period its start falls in.
 */
export type Granularity = 'hourly' | 'daily' | 'weekly' | 'monthly';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Whether Intl knows `tz` as a timezone. */
export const isTimezone = (tz: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

/** The wall clock of a timezone: its local fields at an instant, and the instant of a local time. */
export const wallClock = (tz: string) => {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  });
  const fields = (at: number) => {
    const p = Object.fromEntries(format.formatToParts(at).map((x) => [x.type, x.value]));
    return { y: Number(p.year), m: Number(p.month), d: Number(p.day), h: Number(p.hour), min: Number(p.minute) };
  };
  const offset = (at: number) => {
    const f = fields(at);
    return Date.UTC(f.y, f.m - 1, f.d, f.h, f.min) - Math.floor(at / 60_000) * 60_000;
  };
  /** The instant the local time y-m-d h:00 names (the later reading of a time a DST change repeats). */
  const instant = (y: number, m: number, d: number, h = 0) => {
    const guess = Date.UTC(y, m - 1, d, h);
    const first = guess - offset(guess);
    return guess - offset(first);
  };
  return { fields, instant };
};

/** Maps an instant to the start (ISO, UTC) of its period in the timezone. */
export const periodOf = (tz: string, granularity: Granularity) => {
  const clock = wallClock(tz);
  const cache = new Map<number, string>();
  return (at: number): string => {
    const hour = Math.floor(at / HOUR) * HOUR;
    let period = cache.get(hour);
    if (period) return period;
    const f = clock.fields(hour);
    let start: number;
    if (granularity === 'hourly') start = clock.instant(f.y, f.m, f.d, f.h);
    else if (granularity === 'monthly') start = clock.instant(f.y, f.m, 1);
    else if (granularity === 'daily') start = clock.instant(f.y, f.m, f.d);
    else {
      const day = Date.UTC(f.y, f.m - 1, f.d);
      const monday = new Date(day - ((new Date(day).getUTCDay() + 6) % 7) * DAY);
      start = clock.instant(monday.getUTCFullYear(), monday.getUTCMonth() + 1, monday.getUTCDate());
    }
    period = new Date(start).toISOString();
    cache.set(hour, period);
    return period;
  };
};

/** The UTC hours (`yyyy-mm-ddThh`) whose start lies in [from, to). */
export const hoursIn = (from: number, to: number): string[] => {
  const out: string[] = [];
  for (let h = Math.floor(from / HOUR) * HOUR; h < to; h += HOUR) out.push(new Date(h).toISOString().slice(0, 13));
  return out;
};
