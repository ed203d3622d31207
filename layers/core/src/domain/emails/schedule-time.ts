import { validationError } from '../../errors/api-error.ts';
import { MAX_SCHEDULE_AHEAD_DAYS } from '../../limits.ts';

/** How far ahead an email may be scheduled. */
const MAX_SCHEDULE_AHEAD_MS = MAX_SCHEDULE_AHEAD_DAYS * 24 * 3600 * 1000;

const UNITS: Record<string, number> = {
  second: 1000,
  sec: 1000,
  minute: 60_000,
  min: 60_000,
  hour: 3_600_000,
  hr: 3_600_000,
  day: 86_400_000,
};

const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?\s*(Z|z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * An ISO 8601 date or date-time that names a real calendar instant (`2025-02-30` does not,
 * nor hour 24 or minute 60), as epoch ms; NaN otherwise. Without an offset it is read as UTC.
 */
const parseIsoInstant = (value: string): number => {
  const m = ISO_INSTANT.exec(value.trim());
  if (!m) return NaN;
  const [year, month, day, hour = 0, minute = 0, second = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((x) =>
    x === undefined ? undefined : Number(x),
  ) as number[];
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  if (month! < 1 || month! > 12 || day! < 1 || day! > daysInMonth || hour > 23 || minute > 59 || second > 59)
    return NaN;
  const offset = m[7];
  if (offset && !/^[Zz]$/.test(offset)) {
    const [oh, om] = [Number(offset.slice(1, 3)), Number(offset.slice(-2))];
    if (oh > 23 || om > 59) return NaN;
  }
  const iso =
    m[4] === undefined ? `${m[1]}-${m[2]}-${m[3]}T00:00:00Z` : value.trim().replace(' ', 'T') + (offset ? '' : 'Z');
  return Date.parse(iso);
};

/**
 * Reads `scheduled_at`: an ISO 8601 date-time, or natural language such as "in 10 min" / "in 2 hours".
 * Returns epoch ms, or undefined when the time is not in the future (the email goes out now).
 */
export const parseScheduledAt = (value: string | undefined, now: number): number | undefined => {
  if (value === undefined) return undefined;
  const relative = /^\s*in\s+(\d+)\s*(second|sec|minute|min|hour|hr|day)s?\s*$/i.exec(value);
  const at = relative ? now + Number(relative[1]) * UNITS[relative[2]!.toLowerCase()]! : parseIsoInstant(value);
  if (Number.isNaN(at))
    throw validationError(
      `\`scheduled_at\` must be a real ISO 8601 date-time such as \`2026-12-01T09:00:00Z\`, or "in 10 min" / "in 2 hours"; got ${JSON.stringify(value.slice(0, 64))}.`,
    );
  if (at - now > MAX_SCHEDULE_AHEAD_MS)
    throw validationError(`\`scheduled_at\` may be at most ${MAX_SCHEDULE_AHEAD_DAYS} days ahead.`);
  return at > now ? at : undefined;
};
